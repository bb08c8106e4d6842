package io.fluxdrm.pmix.nativ;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.ByteObject;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixRegex;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Info arrays laid out for libpmix and read back; bad memory is reported, never trusted. */
class NativeInfosTest {

  @Test
  void everyCarriedTypeRoundTrips_nestedArraysToo() {
    List<Info> infos =
        List.of(
            new Info("b", PmixDataType.PMIX_BOOL, true),
            new Info("by", PmixDataType.PMIX_BYTE, 200),
            new Info("s", PmixDataType.PMIX_STRING, "node[1-2]:2 ünï"),
            new Info("sz", PmixDataType.PMIX_SIZE, -1L),
            new Info("pid", PmixDataType.PMIX_PID, 4242),
            new Info("i", PmixDataType.PMIX_INT, -7),
            new Info("i8", PmixDataType.PMIX_INT8, -8),
            new Info("i16", PmixDataType.PMIX_INT16, -16000),
            new Info("i32", PmixDataType.PMIX_INT32, Integer.MIN_VALUE),
            new Info("i64", PmixDataType.PMIX_INT64, Long.MIN_VALUE),
            new Info("u", PmixDataType.PMIX_UINT, 4294967295L),
            new Info("u8", PmixDataType.PMIX_UINT8, 255),
            new Info("u16", PmixDataType.PMIX_UINT16, 65535),
            new Info("u32", PmixDataType.PMIX_UINT32, 4294967294L),
            new Info("u64", PmixDataType.PMIX_UINT64, -2L),
            new Info("f", PmixDataType.PMIX_FLOAT, 1.5f),
            new Info("d", PmixDataType.PMIX_DOUBLE, -2.25),
            new Info("t", PmixDataType.PMIX_TIME, 1_700_000_000L),
            new Info("st", PmixDataType.PMIX_STATUS, -195),
            Info.of(PmixKey.PMIX_REQUESTOR, new PmixProc("prte-host-1@0", 3)),
            new Info("bo", PmixDataType.PMIX_BYTE_OBJECT, ByteObject.of(new byte[] {0, 1, -1})),
            new Info("rg", PmixDataType.PMIX_DATA_RANGE, 6),
            new Info("rk", PmixDataType.PMIX_PROC_RANK, 4294967294L),
            new Info("ad", PmixDataType.PMIX_ALLOC_DIRECTIVE, 3),
            Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, AllocInheritance.NONE),
            new Info(PmixKey.PMIX_ALLOC_NODE_LIST, PmixDataType.PMIX_REGEX2, PmixRegex.raw("a,b")),
            new Info(
                "rx2",
                PmixDataType.PMIX_REGEX2,
                PmixRegex.regex2("compress", new byte[] {5, 0, 0, 0, 0x78, 0})),
            new Info(
                "rx",
                PmixDataType.PMIX_REGEX,
                PmixRegex.legacy("raw:n1,n2\0".getBytes(StandardCharsets.UTF_8))),
            new Info(
                "arr",
                PmixDataType.PMIX_DATA_ARRAY,
                List.of(
                    Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node3:2"),
                    new Info(
                        "inner",
                        PmixDataType.PMIX_DATA_ARRAY,
                        List.of(new Info("x", PmixDataType.PMIX_INT, 1))))),
            new Info("empty", PmixDataType.PMIX_DATA_ARRAY, List.of()));
    try (Arena a = Arena.ofConfined()) {
      MemorySegment seg = NativeInfos.write(a, infos);
      NativeInfos.Decoded d = NativeInfos.read(seg, infos.size());
      assertThat(d.invalid()).isEmpty();
      assertThat(d.skipped()).isEmpty();
      assertThat(d.infos()).isEqualTo(infos);
    }
  }

  @Test
  void badMemory_reported_notDereferenced() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment seg =
          NativeInfos.write(
              a,
              List.of(
                  new Info("s", PmixDataType.PMIX_STRING, "x"),
                  new Info("p", PmixDataType.PMIX_DATA_ARRAY, List.of()),
                  new Info("q", PmixDataType.PMIX_INT, 1),
                  Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 2L)));
      long sz = Layouts.INFO.byteSize();
      // a string at NULL, a data array at NULL, an unknown type, a catalog key of a wrong type
      seg.set(ADDRESS, Layouts.INFO_VALUE + Layouts.VALUE_DATA, MemorySegment.NULL);
      seg.set(ADDRESS, sz + Layouts.INFO_VALUE + Layouts.VALUE_DATA, MemorySegment.NULL);
      seg.set(JAVA_SHORT, 2 * sz + Layouts.INFO_VALUE, (short) 9999);
      seg.set(JAVA_SHORT, 3 * sz + Layouts.INFO_VALUE, (short) PmixDataType.PMIX_INT.code());
      NativeInfos.Decoded d = NativeInfos.read(seg, 4);
      assertThat(d.infos()).isEmpty();
      assertThat(d.skipped()).containsExactly("q: type 9999");
      assertThat(d.invalid())
          .hasSize(3)
          .satisfies(l -> assertThat(l.get(0)).startsWith("s: string at NULL"))
          .satisfies(l -> assertThat(l.get(1)).startsWith("p: data array at NULL"))
          .satisfies(
              l -> assertThat(l.get(2)).startsWith("pmix.alloc.nnodes: info pmix.alloc.nnodes"));
      assertThat(NativeInfos.read(MemorySegment.NULL, 5).invalid())
          .containsExactly("array of 5 entries at NULL");
      assertThat(NativeInfos.read(seg, 1L << 40).invalid()).hasSize(1);
    }
  }

  /** D504: a pmix_regex2_t and a regex byte object laid out as libpmix reads them. */
  @Test
  void regexValues_laidOutAsLibpmixReadsThem_andBadOnesReported() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment seg =
          NativeInfos.write(
              a,
              List.of(
                  new Info("r2", PmixDataType.PMIX_REGEX2, PmixRegex.raw("n1,n2")),
                  new Info(
                      "r",
                      PmixDataType.PMIX_REGEX,
                      PmixRegex.legacy("raw:n3\0".getBytes(StandardCharsets.UTF_8)))));
      long sz = Layouts.INFO.byteSize();
      long d = Layouts.INFO_VALUE + Layouts.VALUE_DATA;
      MemorySegment rx = seg.get(ADDRESS, d).reinterpret(Layouts.REGEX2.byteSize());
      assertThat(rx.get(ADDRESS, 0).reinterpret(16).getString(0)).isEqualTo("raw");
      assertThat(rx.get(JAVA_LONG, Layouts.REGEX2_LEN)).isEqualTo(6);
      assertThat(rx.get(ADDRESS, Layouts.REGEX2_BYTES).reinterpret(6).getString(0))
          .isEqualTo("n1,n2");
      assertThat(seg.get(JAVA_LONG, sz + d + ADDRESS.byteSize())).isEqualTo(7);
      assertThat(seg.get(ADDRESS, sz + d).reinterpret(7).getString(0)).isEqualTo("raw:n3");
      assertThat(NativeInfos.read(seg, 2).infos())
          .extracting(Info::stringValue)
          .containsExactly("n1,n2", "n3");
      // a regex2 without its tag, one of zero bytes, a byte object at NULL
      rx.set(ADDRESS, 0, MemorySegment.NULL);
      seg.set(ADDRESS, sz + d, MemorySegment.NULL);
      assertThat(NativeInfos.read(seg, 2).invalid())
          .containsExactly("r2: PMIX_REGEX2 without an encoding tag", "r: PMIX_REGEX of 7 bytes");
      rx.set(ADDRESS, 0, a.allocateFrom("raw"));
      rx.set(JAVA_LONG, Layouts.REGEX2_LEN, 0);
      assertThat(NativeInfos.read(seg, 1).invalid()).containsExactly("r2: PMIX_REGEX2 of 0 bytes");
    }
  }
}
