package io.fluxdrm.pmix.nativ;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.ByteObject;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixRegex;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code pmix_info_t} arrays to and from {@link Info} lists. Writing lays the entries out in memory
 * of a Java {@link Arena} that the caller owns and closes once libpmix is done with it (never
 * memory libpmix frees); reading copies everything into Java values and keeps no pointer. Reading
 * never trusts its input: a null pointer, a count beyond {@link #MAX_ENTRIES}, a type the model
 * does not carry or a value that does not fit its key is reported, never dereferenced blindly or
 * thrown on libpmix's thread.
 *
 * <p>Why one class: writing and reading are the two directions of one layout, {@code
 * pmix_value_t}'s union by data type, and must agree on every type they carry ({@link #CARRIED});
 * kept together, one switch per direction shows each type's two sides side by side.
 */
public final class NativeInfos {
  private NativeInfos() {}

  /** Most entries read from one array, nested arrays counted (as the reference DVM's maxInfos). */
  public static final int MAX_ENTRIES = 1024;

  private static final int MAX_DEPTH = 8;

  /** The data types carried both ways. */
  public static final Set<PmixDataType> CARRIED =
      EnumSet.of(
          PmixDataType.PMIX_BOOL,
          PmixDataType.PMIX_BYTE,
          PmixDataType.PMIX_STRING,
          PmixDataType.PMIX_SIZE,
          PmixDataType.PMIX_PID,
          PmixDataType.PMIX_INT,
          PmixDataType.PMIX_INT8,
          PmixDataType.PMIX_INT16,
          PmixDataType.PMIX_INT32,
          PmixDataType.PMIX_INT64,
          PmixDataType.PMIX_UINT,
          PmixDataType.PMIX_UINT8,
          PmixDataType.PMIX_UINT16,
          PmixDataType.PMIX_UINT32,
          PmixDataType.PMIX_UINT64,
          PmixDataType.PMIX_FLOAT,
          PmixDataType.PMIX_DOUBLE,
          PmixDataType.PMIX_TIME,
          PmixDataType.PMIX_STATUS,
          PmixDataType.PMIX_PROC,
          PmixDataType.PMIX_BYTE_OBJECT,
          PmixDataType.PMIX_DATA_RANGE,
          PmixDataType.PMIX_DATA_ARRAY,
          PmixDataType.PMIX_PROC_RANK,
          PmixDataType.PMIX_ALLOC_DIRECTIVE,
          PmixDataType.PMIX_ALLOC_INHERIT,
          PmixDataType.PMIX_REGEX,
          PmixDataType.PMIX_REGEX2);

  /** Most bytes read from a regex value (its expansion is bounded by {@link PmixRegex}). */
  static final long MAX_REGEX_BYTES = PmixRegex.MAX_TEXT_BYTES + 64L;

  /**
   * What was read: the entries, the entries left out because the model does not carry their type
   * (unknown keys are ignored, as PMIx servers do), the entries whose value does not fit (a request
   * holding one is refused), the procs of proc arrays by key, and the {@code
   * PMIX_EVENT_RETURN_OBJECT} pointer, if any.
   *
   * @param infos the entries read
   * @param skipped "key: why" of each entry left out
   * @param invalid "key: why" of each entry that does not fit
   * @param procArrays key and procs of each data array of {@code pmix_proc_t}
   * @param returnObject the value of {@code PMIX_EVENT_RETURN_OBJECT}, or 0
   */
  public record Decoded(
      List<Info> infos,
      List<String> skipped,
      List<String> invalid,
      List<ProcArray> procArrays,
      long returnObject) {
    /** Copies. */
    public Decoded {
      infos = List.copyOf(infos);
      skipped = List.copyOf(skipped);
      invalid = List.copyOf(invalid);
      procArrays = List.copyOf(procArrays);
    }

    /** The procs of the proc array under {@code key}, if there is one. */
    public Optional<List<PmixProc>> procs(String key) {
      return procArrays.stream().filter(p -> p.key().equals(key)).map(ProcArray::procs).findFirst();
    }
  }

  /**
   * A data array of procs under a key (the info model holds arrays of info and apps only).
   *
   * @param key the key
   * @param procs the procs
   */
  public record ProcArray(String key, List<PmixProc> procs) {
    /** Copies. */
    public ProcArray {
      procs = List.copyOf(procs);
    }
  }

  // ---------------------------------------------------------------- writing

  /**
   * Lays out {@code infos} as a {@code pmix_info_t[]} in {@code arena}.
   *
   * @param arena the owner of the memory
   * @param infos the entries
   * @return the array, {@link MemorySegment#NULL} when empty
   * @throws PmixNativeException for a value of a type not carried
   */
  public static MemorySegment write(Arena arena, List<Info> infos) {
    if (infos.isEmpty()) {
      return MemorySegment.NULL;
    }
    MemorySegment a = arena.allocate(Layouts.INFO, infos.size());
    for (int i = 0; i < infos.size(); i++) {
      writeInfo(
          arena, a.asSlice(i * Layouts.INFO.byteSize(), Layouts.INFO.byteSize()), infos.get(i));
    }
    return a;
  }

  /**
   * Writes one entry into the {@code pmix_info_t} at {@code at}.
   *
   * @param arena owner of what the value points to
   * @param at the entry's memory (zeroed)
   * @param info the entry
   */
  static void writeInfo(Arena arena, MemorySegment at, Info info) {
    byte[] key = info.key().getBytes(StandardCharsets.UTF_8);
    if (key.length > Layouts.MAX_KEYLEN) {
      throw new PmixNativeException(
          "info " + info.key() + ": key has " + key.length + " bytes (expected: at most 511)");
    }
    MemorySegment.copy(key, 0, at, JAVA_BYTE, 0, key.length);
    at.set(JAVA_BYTE, key.length, (byte) 0);
    at.set(JAVA_INT, Layouts.INFO_FLAGS, 0);
    writeValue(arena, at.asSlice(Layouts.INFO_VALUE, Layouts.VALUE.byteSize()), info);
  }

  private static void writeValue(Arena arena, MemorySegment v, Info info) {
    PmixDataType t = info.type();
    if (!CARRIED.contains(t)) {
      throw new PmixNativeException(
          "info " + info.key() + ": type " + t + " is not carried by the binding");
    }
    v.set(JAVA_SHORT, 0, (short) t.code());
    long d = Layouts.VALUE_DATA;
    Object o = info.value();
    switch (t) {
      case PMIX_BOOL -> v.set(JAVA_BYTE, d, (byte) (((Boolean) o) ? 1 : 0));
      case PMIX_BYTE, PMIX_UINT8, PMIX_DATA_RANGE, PMIX_ALLOC_DIRECTIVE, PMIX_INT8 ->
          v.set(JAVA_BYTE, d, (byte) (int) (Integer) o);
      case PMIX_ALLOC_INHERIT -> v.set(JAVA_BYTE, d, (byte) ((AllocInheritance) o).code());
      case PMIX_INT16, PMIX_UINT16 -> v.set(JAVA_SHORT, d, (short) (int) (Integer) o);
      case PMIX_INT, PMIX_INT32, PMIX_STATUS, PMIX_PID -> v.set(JAVA_INT, d, (Integer) o);
      case PMIX_UINT, PMIX_UINT32, PMIX_PROC_RANK -> v.set(JAVA_INT, d, (int) (long) (Long) o);
      case PMIX_INT64, PMIX_TIME, PMIX_UINT64, PMIX_SIZE -> v.set(JAVA_LONG, d, (Long) o);
      case PMIX_FLOAT -> v.set(JAVA_FLOAT, d, (Float) o);
      case PMIX_DOUBLE -> v.set(JAVA_DOUBLE, d, (Double) o);
      case PMIX_STRING -> v.set(ADDRESS, d, arena.allocateFrom((String) o));
      case PMIX_PROC -> v.set(ADDRESS, d, proc(arena, (PmixProc) o));
      case PMIX_BYTE_OBJECT -> {
        byte[] b = ((ByteObject) o).bytes();
        MemorySegment bytes = arena.allocate(Math.max(1, b.length));
        MemorySegment.copy(b, 0, bytes, JAVA_BYTE, 0, b.length);
        v.set(ADDRESS, d, bytes);
        v.set(JAVA_LONG, d + ADDRESS.byteSize(), b.length);
      }
      case PMIX_REGEX -> {
        // a byte object holding the serialized regex (D504)
        byte[] b = ((PmixRegex) o).bytes();
        v.set(ADDRESS, d, bytes(arena, b));
        v.set(JAVA_LONG, d + ADDRESS.byteSize(), b.length);
      }
      case PMIX_REGEX2 -> {
        // a pointer to a pmix_regex2_t (D504)
        PmixRegex r = (PmixRegex) o;
        byte[] b = r.bytes();
        MemorySegment rx = arena.allocate(Layouts.REGEX2);
        rx.set(ADDRESS, 0, arena.allocateFrom(r.encoding().orElseThrow()));
        rx.set(ADDRESS, Layouts.REGEX2_BYTES, bytes(arena, b));
        rx.set(JAVA_LONG, Layouts.REGEX2_LEN, b.length);
        v.set(ADDRESS, d, rx);
      }
      case PMIX_DATA_ARRAY -> v.set(ADDRESS, d, dataArray(arena, info));
      default -> throw new IllegalStateException("type " + t);
    }
  }

  private static MemorySegment bytes(Arena arena, byte[] b) {
    MemorySegment m = arena.allocate(Math.max(1, b.length));
    MemorySegment.copy(b, 0, m, JAVA_BYTE, 0, b.length);
    return m;
  }

  private static MemorySegment dataArray(Arena arena, Info info) {
    MemorySegment da = arena.allocate(Layouts.DATA_ARRAY);
    if (info.isAppArray()) {
      List<App> apps = info.appsValue();
      da.set(JAVA_SHORT, 0, (short) Layouts.TYPE_APP);
      da.set(JAVA_LONG, Layouts.DARRAY_SIZE, apps.size());
      da.set(ADDRESS, Layouts.DARRAY_ARRAY, apps(arena, apps));
    } else {
      List<Info> inner = info.infosValue();
      da.set(JAVA_SHORT, 0, (short) Layouts.TYPE_INFO);
      da.set(JAVA_LONG, Layouts.DARRAY_SIZE, inner.size());
      da.set(ADDRESS, Layouts.DARRAY_ARRAY, write(arena, inner));
    }
    return da;
  }

  /**
   * A {@code pmix_app_t[]} in {@code arena}.
   *
   * @param arena the owner
   * @param apps the apps
   * @return the array
   */
  public static MemorySegment apps(Arena arena, List<App> apps) {
    MemorySegment a = arena.allocate(Layouts.APP, apps.size());
    for (int i = 0; i < apps.size(); i++) {
      App app = apps.get(i);
      MemorySegment at = a.asSlice(i * Layouts.APP.byteSize(), Layouts.APP.byteSize());
      at.set(ADDRESS, Layouts.app("cmd"), arena.allocateFrom(app.cmd()));
      at.set(ADDRESS, Layouts.app("argv"), argv(arena, app.argv()));
      at.set(ADDRESS, Layouts.app("env"), MemorySegment.NULL);
      at.set(ADDRESS, Layouts.app("cwd"), MemorySegment.NULL);
      at.set(JAVA_INT, Layouts.app("maxprocs"), app.maxprocs());
      at.set(ADDRESS, Layouts.app("info"), write(arena, app.infos()));
      at.set(JAVA_LONG, Layouts.app("ninfo"), app.infos().size());
    }
    return a;
  }

  private static MemorySegment argv(Arena arena, List<String> argv) {
    MemorySegment a = arena.allocate(ADDRESS, argv.size() + 1L);
    for (int i = 0; i < argv.size(); i++) {
      a.setAtIndex(ADDRESS, i, arena.allocateFrom(argv.get(i)));
    }
    a.setAtIndex(ADDRESS, argv.size(), MemorySegment.NULL);
    return a;
  }

  /**
   * A {@code pmix_proc_t} in {@code arena}.
   *
   * @param arena the owner
   * @param p the proc
   * @return its memory
   */
  public static MemorySegment proc(Arena arena, PmixProc p) {
    MemorySegment m = arena.allocate(Layouts.PROC);
    byte[] ns = p.nspace().getBytes(StandardCharsets.UTF_8);
    if (ns.length > Layouts.MAX_NSLEN) {
      throw new PmixNativeException(
          "proc: nspace has " + ns.length + " bytes (expected: at most " + Layouts.MAX_NSLEN + ")");
    }
    MemorySegment.copy(ns, 0, m, JAVA_BYTE, 0, ns.length);
    m.set(JAVA_INT, Layouts.PROC_RANK, (int) p.rank());
    return m;
  }

  // ---------------------------------------------------------------- reading

  /**
   * Reads the {@code pmix_proc_t} at {@code p}.
   *
   * @param p a pointer (may be NULL)
   * @return the proc, or empty for NULL or a namespace that is not text
   */
  public static Optional<PmixProc> readProc(MemorySegment p) {
    if (p.equals(MemorySegment.NULL)) {
      return Optional.empty();
    }
    MemorySegment m = p.reinterpret(Layouts.PROC.byteSize());
    String ns = fixedString(m, 0, Layouts.MAX_NSLEN + 1);
    long rank = Integer.toUnsignedLong(m.get(JAVA_INT, Layouts.PROC_RANK));
    try {
      return Optional.of(new PmixProc(ns, rank));
    } catch (PmixException e) {
      return Optional.empty();
    }
  }

  /**
   * Reads {@code n} entries of the {@code pmix_info_t[]} at {@code base}.
   *
   * @param base the array (NULL with {@code n == 0})
   * @param n its length
   * @return what was read
   */
  public static Decoded read(MemorySegment base, long n) {
    Reader r = new Reader();
    List<Info> infos = r.array(base, n, 0, "");
    return new Decoded(infos, r.skipped, r.invalid, r.procArrays, r.returnObject);
  }

  private static final class Reader {
    final List<String> skipped = new ArrayList<>();
    final List<String> invalid = new ArrayList<>();
    final List<ProcArray> procArrays = new ArrayList<>();
    long returnObject;
    int count;

    List<Info> array(MemorySegment base, long n, int depth, String where) {
      List<Info> out = new ArrayList<>();
      if (n == 0) {
        return out;
      }
      if (n < 0 || count + n > MAX_ENTRIES) {
        invalid.add(where + "array of " + n + " entries (expected: at most " + MAX_ENTRIES + ")");
        return out;
      }
      if (base.equals(MemorySegment.NULL)) {
        invalid.add(where + "array of " + n + " entries at NULL");
        return out;
      }
      count += (int) n;
      MemorySegment a = base.reinterpret(n * Layouts.INFO.byteSize());
      for (long i = 0; i < n; i++) {
        Info info =
            entry(a.asSlice(i * Layouts.INFO.byteSize(), Layouts.INFO.byteSize()), depth, where);
        if (info != null) {
          out.add(info);
        }
      }
      return out;
    }

    Info entry(MemorySegment at, int depth, String where) {
      String key = fixedString(at, 0, Layouts.MAX_KEYLEN + 1);
      String here = where + key;
      MemorySegment v = at.asSlice(Layouts.INFO_VALUE, Layouts.VALUE.byteSize());
      int code = Short.toUnsignedInt(v.get(JAVA_SHORT, 0));
      long d = Layouts.VALUE_DATA;
      if (key.isEmpty()) {
        invalid.add(where + "(empty key)");
        return null;
      }
      if (code == Layouts.TYPE_POINTER) {
        if (key.equals(NativeKeys.EVENT_RETURN_OBJECT)) {
          returnObject = v.get(ADDRESS, d).address();
        } else {
          skipped.add(here + ": PMIX_POINTER");
        }
        return null;
      }
      Optional<PmixDataType> t = PmixDataType.byCode(code);
      if (t.isEmpty() || !CARRIED.contains(t.get())) {
        skipped.add(here + ": type " + t.map(Enum::name).orElse(Integer.toString(code)));
        return null;
      }
      Object value;
      switch (t.get()) {
        case PMIX_BOOL -> value = v.get(JAVA_BYTE, d) != 0;
        case PMIX_BYTE, PMIX_UINT8, PMIX_DATA_RANGE, PMIX_ALLOC_DIRECTIVE ->
            value = Byte.toUnsignedInt(v.get(JAVA_BYTE, d));
        case PMIX_INT8 -> value = (int) v.get(JAVA_BYTE, d);
        case PMIX_ALLOC_INHERIT -> {
          int c = Byte.toUnsignedInt(v.get(JAVA_BYTE, d));
          Optional<AllocInheritance> a = AllocInheritance.of(c);
          if (a.isEmpty()) {
            invalid.add(here + ": inheritance " + c + " (expected: 1 to 4)");
            return null;
          }
          value = a.get();
        }
        case PMIX_INT16 -> value = (int) v.get(JAVA_SHORT, d);
        case PMIX_UINT16 -> value = Short.toUnsignedInt(v.get(JAVA_SHORT, d));
        case PMIX_INT, PMIX_INT32, PMIX_STATUS, PMIX_PID -> value = v.get(JAVA_INT, d);
        case PMIX_UINT, PMIX_UINT32, PMIX_PROC_RANK ->
            value = Integer.toUnsignedLong(v.get(JAVA_INT, d));
        case PMIX_INT64, PMIX_TIME, PMIX_UINT64, PMIX_SIZE -> value = v.get(JAVA_LONG, d);
        case PMIX_FLOAT -> value = v.get(JAVA_FLOAT, d);
        case PMIX_DOUBLE -> value = v.get(JAVA_DOUBLE, d);
        case PMIX_STRING -> {
          MemorySegment p = v.get(ADDRESS, d);
          if (p.equals(MemorySegment.NULL)) {
            invalid.add(here + ": string at NULL");
            return null;
          }
          value = p.reinterpret(Long.MAX_VALUE).getString(0);
        }
        case PMIX_PROC -> {
          Optional<PmixProc> p = readProc(v.get(ADDRESS, d));
          if (p.isEmpty()) {
            invalid.add(here + ": proc at NULL or not a process name");
            return null;
          }
          value = p.get();
        }
        case PMIX_BYTE_OBJECT -> {
          MemorySegment p = v.get(ADDRESS, d);
          long size = v.get(JAVA_LONG, d + ADDRESS.byteSize());
          if (size < 0 || size > 1 << 20 || (size > 0 && p.equals(MemorySegment.NULL))) {
            invalid.add(here + ": byte object of " + size + " bytes");
            return null;
          }
          value = ByteObject.of(size == 0 ? new byte[0] : p.reinterpret(size).toArray(JAVA_BYTE));
        }
        case PMIX_REGEX -> {
          MemorySegment p = v.get(ADDRESS, d);
          long size = v.get(JAVA_LONG, d + ADDRESS.byteSize());
          if (size <= 0 || size > MAX_REGEX_BYTES || p.equals(MemorySegment.NULL)) {
            invalid.add(here + ": PMIX_REGEX of " + size + " bytes");
            return null;
          }
          value = PmixRegex.legacy(p.reinterpret(size).toArray(JAVA_BYTE));
        }
        case PMIX_REGEX2 -> {
          value = regex2(v.get(ADDRESS, d), here);
          if (value == null) {
            return null;
          }
        }
        case PMIX_DATA_ARRAY -> {
          if (depth >= MAX_DEPTH) {
            invalid.add(here + ": data arrays nested deeper than " + MAX_DEPTH);
            return null;
          }
          value = dataArray(v.get(ADDRESS, d), depth, here);
          if (value == null) {
            return null;
          }
        }
        default -> throw new IllegalStateException("type " + t.get());
      }
      try {
        return new Info(key, t.get(), value);
      } catch (PmixException e) {
        invalid.add(here + ": " + e.getMessage());
        return null;
      }
    }

    /** The {@code pmix_regex2_t} at {@code p}, or null (recorded) when it is not one. */
    PmixRegex regex2(MemorySegment p, String here) {
      if (p.equals(MemorySegment.NULL)) {
        invalid.add(here + ": PMIX_REGEX2 at NULL");
        return null;
      }
      MemorySegment rx = p.reinterpret(Layouts.REGEX2.byteSize());
      MemorySegment tag = rx.get(ADDRESS, 0);
      MemorySegment bytes = rx.get(ADDRESS, Layouts.REGEX2_BYTES);
      long len = rx.get(JAVA_LONG, Layouts.REGEX2_LEN);
      if (tag.equals(MemorySegment.NULL)) {
        invalid.add(here + ": PMIX_REGEX2 without an encoding tag");
        return null;
      }
      if (len <= 0 || len > MAX_REGEX_BYTES || bytes.equals(MemorySegment.NULL)) {
        invalid.add(here + ": PMIX_REGEX2 of " + len + " bytes");
        return null;
      }
      String encoding = fixedString(tag.reinterpret(65), 0, 65);
      try {
        return PmixRegex.regex2(encoding, bytes.reinterpret(len).toArray(JAVA_BYTE));
      } catch (PmixException e) {
        invalid.add(here + ": " + e.getMessage());
        return null;
      }
    }

    /** The value of a data array, or null (recorded) when it is not one the model carries. */
    Object dataArray(MemorySegment p, int depth, String here) {
      if (p.equals(MemorySegment.NULL)) {
        invalid.add(here + ": data array at NULL");
        return null;
      }
      MemorySegment da = p.reinterpret(Layouts.DATA_ARRAY.byteSize());
      int type = Short.toUnsignedInt(da.get(JAVA_SHORT, 0));
      long size = da.get(JAVA_LONG, Layouts.DARRAY_SIZE);
      MemorySegment array = da.get(ADDRESS, Layouts.DARRAY_ARRAY);
      if (size < 0 || count + size > MAX_ENTRIES) {
        invalid.add(here + ": data array of " + size + " elements");
        return null;
      }
      if (size > 0 && array.equals(MemorySegment.NULL)) {
        invalid.add(here + ": data array of " + size + " elements at NULL");
        return null;
      }
      if (type == Layouts.TYPE_INFO) {
        return array(array, size, depth + 1, here + ".");
      }
      if (type == PmixDataType.PMIX_PROC.code()) {
        count += (int) size;
        List<PmixProc> procs = new ArrayList<>();
        MemorySegment a = array.reinterpret(size * Layouts.PROC.byteSize());
        for (long i = 0; i < size; i++) {
          readProc(a.asSlice(i * Layouts.PROC.byteSize())).ifPresent(procs::add);
        }
        procArrays.add(new ProcArray(here, procs));
        return null;
      }
      if (type == Layouts.TYPE_PROC_INFO) {
        count += (int) size;
        List<Info> procs = new ArrayList<>();
        long sz = Layouts.PROC_INFO.byteSize();
        MemorySegment a = array.reinterpret(size * sz);
        for (long i = 0; i < size; i++) {
          procInfo(a.asSlice(i * sz, sz), here).ifPresent(procs::add);
        }
        return procs;
      }
      skipped.add(
          here
              + ": data array of "
              + PmixDataType.byCode(type).map(Enum::name).orElse(Integer.toString(type)));
      return null;
    }

    /** A {@code pmix_proc_info_t} as an info array ({@link NativeKeys#PROC_INFO}). */
    Optional<Info> procInfo(MemorySegment m, String here) {
      Optional<PmixProc> proc = readProc(m);
      MemorySegment host =
          m.get(
              ADDRESS,
              Layouts.PROC_INFO.byteOffset(MemoryLayout.PathElement.groupElement("hostname")));
      int state =
          Byte.toUnsignedInt(
              m.get(
                  JAVA_BYTE,
                  Layouts.PROC_INFO.byteOffset(MemoryLayout.PathElement.groupElement("state"))));
      if (proc.isEmpty()) {
        invalid.add(here + ": a proc info whose namespace is not text");
        return Optional.empty();
      }
      List<Info> fields = new ArrayList<>();
      fields.add(new Info(PmixKey.PMIX_NSPACE, PmixDataType.PMIX_STRING, proc.get().nspace()));
      fields.add(new Info(PmixKey.PMIX_RANK, PmixDataType.PMIX_PROC_RANK, proc.get().rank()));
      if (!host.equals(MemorySegment.NULL)) {
        fields.add(
            new Info(
                NativeKeys.HOSTNAME,
                PmixDataType.PMIX_STRING,
                host.reinterpret(Integer.MAX_VALUE).getString(0)));
      }
      fields.add(new Info(NativeKeys.PROC_STATE_STATUS, PmixDataType.PMIX_UINT8, state));
      return Optional.of(new Info(NativeKeys.PROC_INFO, PmixDataType.PMIX_DATA_ARRAY, fields));
    }
  }

  /** A NUL-terminated string in a fixed field of {@code len} bytes (unterminated: all of it). */
  static String fixedString(MemorySegment m, long off, int len) {
    int n = 0;
    while (n < len && m.get(JAVA_BYTE, off + n) != 0) {
      n++;
    }
    byte[] b = new byte[n];
    MemorySegment.copy(m, JAVA_BYTE, off, b, 0, n);
    return new String(b, StandardCharsets.UTF_8);
  }
}
