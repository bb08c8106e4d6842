package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.PmixRegex;
import io.fluxdrm.rset.Hostlist;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The regex values the peer's libpmix makes ({@code PMIx_generate_regex2}, and the deprecated
 * {@code PMIx_generate_regex} and {@code PMIx_generate_ppn} loaded as a {@code PMIX_REGEX} value)
 * expand, through {@link PmixRegex}, to the list they were made of, and to what libpmix's own
 * {@code PMIx_parse_regex2} gives (D503, D504). Run with libpmix's default compressor (lz4 on the
 * peer) and with zlib; lists of 256 bytes or more come out compressed.
 */
class PmixRegexPeerTest {

  private static final HexFormat HEX = HexFormat.of();

  static List<String> lists() {
    return List.of(
        "node1",
        "n1,n2,n3,n4",
        "alpha1,alpha2,beta01,beta02,login,gamma7",
        IntStream.rangeClosed(1, 100)
            .mapToObj(i -> String.format("node%03d", i))
            .collect(Collectors.joining(",")),
        IntStream.range(0, 200)
            .mapToObj(i -> (i % 2 == 0 ? "cn" : "gpu-") + i)
            .collect(Collectors.joining(",")));
  }

  @ParameterizedTest(name = "pcompress {0}")
  @ValueSource(strings = {"default", "zlib"})
  void everyFormLibpmixMakes_expandsToTheListItWasMadeOf(String compressor, @TempDir Path dir)
      throws Exception {
    Peer.needHeaders();
    Peer.needLibrary();
    Path bin = Peer.compile("regex-gen.c", dir, true);
    List<String> lists = lists();
    List<String> cmd = new ArrayList<>(List.of(bin.toString()));
    cmd.addAll(lists);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    pb.environment().put("LD_LIBRARY_PATH", Peer.pmixPrefix().resolve("lib").toString());
    if (!compressor.equals("default")) {
      pb.environment().put("PMIX_MCA_pcompress", compressor);
    }
    Peer.Ran ran = Peer.runFor(pb, Duration.ofSeconds(120));
    assertThat(ran.exit()).as(ran.out()).isZero();

    List<String> encodings = new ArrayList<>();
    List<String> payloads = new ArrayList<>();
    int lines = 0;
    for (String line : ran.out().split("\n")) {
      String[] f = line.strip().split(" ");
      if (f.length < 3 || !List.of("regex2", "regex", "ppn").contains(f[0])) {
        continue; // libpmix's own chatter, if any
      }
      lines++;
      String list = lists.get(Integer.parseInt(f[1]) - 1);
      PmixRegex r;
      if (f[0].equals("regex2")) {
        r = PmixRegex.regex2(f[2], HEX.parseHex(f[3]));
        String theirs = new String(HEX.parseHex(f[4]), StandardCharsets.UTF_8);
        assertThat(theirs).as("libpmix's own expansion").isEqualTo(list);
        encodings.add(f[2]);
        if (f[2].equals(PmixRegex.COMPRESS)) {
          payloads.add(f[3].substring(8, 16));
        }
      } else {
        r = PmixRegex.legacy(HEX.parseHex(f[2]));
      }
      assertThat(r.text()).as(line).isEqualTo(list);
      assertThat(Hostlist.of(r.hosts())).as(line).isEqualTo(Hostlist.of(List.of(list.split(","))));
    }
    assertThat(lines).as(ran.out()).isEqualTo(3 * lists.size());
    // short lists stay raw, the two long ones are compressed, by the compressor asked for
    assertThat(encodings).containsExactly("raw", "raw", "raw", "compress", "compress");
    String magic = compressor.equals("zlib") ? "78" : "04224d18";
    assertThat(payloads).allSatisfy(p -> assertThat(p).startsWith(magic));
  }
}
