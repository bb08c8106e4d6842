package io.fluxdrm.pmix;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JSON form of PMIx info arrays, for transports and transcripts: an array of objects {@code
 * {"key": "pmix.alloc.nnodes", "type": "PMIX_UINT64", "value": 4}}.
 *
 * <p>{@code type} is a data type name or its numeric code; it may be left out for a key of the
 * {@link PmixKey} catalog (the key's own type is used) and is required for any other key. Values:
 * JSON booleans, strings and integers as the type demands (uint64 up to 18446744073709551615, never
 * through a double), numbers for float and double, {@code {"nspace": s, "rank": n}} for a proc,
 * base64 text for a byte object (and for a PMIX_REGEX, the bytes of its byte object), {@code
 * {"encoding": "raw", "bytes": base64}} for a PMIX_REGEX2 (its {@code pmix_regex2_t}; decision
 * D503), an info array for a data array (or, for a data array of apps, an array of {@code {"cmd":
 * s, "argv": [s...], "maxprocs": n, "infos": [...]}}), the number 1 to 4 for an inheritance.
 * Decoding reports every problem with its JSON Pointer, e.g. {@code /2/value: "x" is not a uint64
 * (expected: key pmix.alloc.nnodes has type PMIX_UINT64)}. Encoding always writes the type by name.
 */
public final class InfoCodec {
  private InfoCodec() {}

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final BigInteger UINT64_MAX =
      BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
  private static final Set<String> MEMBERS = Set.of("key", "type", "value");

  /**
   * Decodes an info array from JSON text.
   *
   * @param json the text
   * @return the entries, in order
   * @throws PmixException with every problem, located
   */
  public static List<Info> decode(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      String msg = e.getOriginalMessage() == null ? "" : e.getOriginalMessage().split("\n")[0];
      throw new PmixException("info array: not valid JSON: " + msg);
    }
    return decode(root);
  }

  /**
   * Decodes an info array.
   *
   * @param array the JSON array
   * @return the entries, in order
   * @throws PmixException with every problem, located
   */
  public static List<Info> decode(JsonNode array) {
    List<String> problems = new ArrayList<>();
    List<Info> out = decodeArray(array, "", problems);
    if (!problems.isEmpty()) {
      throw new PmixException(problems);
    }
    return out;
  }

  /**
   * Encodes an info array.
   *
   * @param infos the entries
   * @return a new JSON array
   */
  public static ArrayNode encode(List<Info> infos) {
    ArrayNode a = JsonNodeFactory.instance.arrayNode();
    for (Info i : infos) {
      ObjectNode o = a.addObject();
      o.put("key", i.key());
      o.put("type", i.type().name());
      o.set("value", value(i));
    }
    return a;
  }

  /**
   * Encodes an info array as compact JSON text.
   *
   * @param infos the entries
   * @return the text
   */
  public static String write(List<Info> infos) {
    return encode(infos).toString();
  }

  private static JsonNode value(Info i) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    Object v = i.value();
    return switch (i.type()) {
      case PMIX_UINT64, PMIX_SIZE -> {
        long l = (Long) v;
        yield l >= 0 ? f.numberNode(l) : f.numberNode(new BigInteger(Long.toUnsignedString(l)));
      }
      case PMIX_PROC -> {
        PmixProc p = (PmixProc) v;
        ObjectNode o = f.objectNode();
        o.put("nspace", p.nspace());
        o.put("rank", p.rank());
        yield o;
      }
      case PMIX_BYTE_OBJECT -> f.textNode(((ByteObject) v).toBase64());
      case PMIX_REGEX -> f.textNode(Base64.getEncoder().encodeToString(((PmixRegex) v).bytes()));
      case PMIX_REGEX2 -> {
        PmixRegex r = (PmixRegex) v;
        ObjectNode o = f.objectNode();
        o.put("encoding", r.encoding().orElseThrow());
        o.put("bytes", Base64.getEncoder().encodeToString(r.bytes()));
        yield o;
      }
      case PMIX_ALLOC_INHERIT -> f.numberNode(((AllocInheritance) v).code());
      case PMIX_DATA_ARRAY -> {
        if (i.isAppArray()) {
          ArrayNode apps = f.arrayNode();
          for (App app : i.appsValue()) {
            ObjectNode o = apps.addObject();
            o.put("cmd", app.cmd());
            ArrayNode argv = o.putArray("argv");
            app.argv().forEach(argv::add);
            o.put("maxprocs", app.maxprocs());
            o.set("infos", encode(app.infos()));
          }
          yield apps;
        }
        yield encode(i.infosValue());
      }
      default -> MAPPER.valueToTree(v);
    };
  }

  private static List<Info> decodeArray(JsonNode array, String at, List<String> problems) {
    List<Info> out = new ArrayList<>();
    if (array == null || !array.isArray()) {
      problems.add(
          (at.isEmpty() ? "/" : at) + ": " + kind(array) + " (expected: an array of info entries)");
      return out;
    }
    for (int n = 0; n < array.size(); n++) {
      Info i = entry(array.get(n), at + "/" + n, problems);
      if (i != null) {
        out.add(i);
      }
    }
    return out;
  }

  private static Info entry(JsonNode e, String at, List<String> problems) {
    if (!e.isObject()) {
      problems.add(at + ": " + kind(e) + " (expected: an object with key, type and value)");
      return null;
    }
    int before = problems.size();
    for (Map.Entry<String, JsonNode> m : e.properties()) {
      if (!MEMBERS.contains(m.getKey())) {
        problems.add(
            at + ": unexpected member \"" + m.getKey() + "\" (expected: key, type, value)");
      }
    }
    JsonNode k = e.get("key");
    String key = null;
    if (k == null || !k.isTextual()) {
      problems.add(at + "/key: " + (k == null ? "missing" : kind(k)) + " (expected: a string)");
    } else {
      key = k.asText();
      String kp = Info.keyProblem(key);
      if (kp != null) {
        problems.add(at + "/key: " + kp);
        key = null;
      }
    }
    PmixDataType type = key == null ? null : type(e.get("type"), key, at, problems);
    JsonNode v = e.get("value");
    if (v == null) {
      problems.add(at + "/value: missing (expected: a value)");
    }
    if (type == null || v == null || problems.size() > before) {
      return null;
    }
    Object value = convert(v, type, key, at + "/value", problems);
    if (value == null) {
      return null;
    }
    String vp = Values.check(key, type, value);
    if (vp != null) {
      problems.add(
          at
              + "/value: "
              + v
              + " is not a "
              + Values.word(type)
              + " (expected: "
              + Values.expected(key, type)
              + ")");
      return null;
    }
    return new Info(key, type, value);
  }

  private static PmixDataType type(JsonNode t, String key, String at, List<String> problems) {
    if (t == null) {
      if (PmixKey.isKnown(key)) {
        return PmixKey.typeOf(key).orElseThrow();
      }
      problems.add(
          at
              + "/type: missing for key \""
              + key
              + "\", which is not in the catalog (expected: a data type)");
      return null;
    }
    PmixDataType type;
    if (t.isTextual()) {
      type = PmixDataType.byName(t.asText()).orElse(null);
      if (type == null) {
        problems.add(
            at + "/type: " + t + " is not a PMIx data type (expected: a name like PMIX_UINT64)");
        return null;
      }
    } else if (t.isIntegralNumber() && t.canConvertToInt()) {
      type = PmixDataType.byCode(t.asInt()).orElse(null);
      if (type == null) {
        problems.add(at + "/type: " + t + " is not a PMIx data type code (expected: e.g. 15)");
        return null;
      }
    } else {
      problems.add(at + "/type: " + kind(t) + " (expected: a data type name or code)");
      return null;
    }
    String tp = Info.typeProblem(key, type);
    if (tp != null) {
      problems.add(at + "/type: " + tp);
      return null;
    }
    if (!Values.supported(type)) {
      problems.add(at + "/type: " + Values.check(key, type, null));
      return null;
    }
    return type;
  }

  /**
   * The Java value of a JSON value for a type; null (with a problem added) when it does not fit.
   */
  private static Object convert(
      JsonNode v, PmixDataType t, String key, String at, List<String> problems) {
    Object out =
        switch (t) {
          case PMIX_BOOL -> v.isBoolean() ? v.booleanValue() : null;
          case PMIX_STRING -> v.isTextual() ? v.textValue() : null;
          case PMIX_REGEX -> {
            ByteObject b = bytes(v);
            yield b == null ? null : PmixRegex.legacy(b.bytes());
          }
          case PMIX_REGEX2 -> regex2(v);
          case PMIX_BYTE,
              PMIX_UINT8,
              PMIX_DATA_RANGE,
              PMIX_ALLOC_DIRECTIVE,
              PMIX_INT8,
              PMIX_INT16,
              PMIX_UINT16,
              PMIX_INT,
              PMIX_INT32,
              PMIX_PID,
              PMIX_STATUS ->
              v.isIntegralNumber() && v.canConvertToInt() ? v.intValue() : null;
          case PMIX_UINT, PMIX_UINT32, PMIX_PROC_RANK, PMIX_INT64, PMIX_TIME ->
              v.isIntegralNumber() && v.canConvertToLong() ? v.longValue() : null;
          case PMIX_UINT64, PMIX_SIZE -> uint64(v);
          case PMIX_FLOAT -> v.isNumber() ? v.floatValue() : null;
          case PMIX_DOUBLE -> v.isNumber() ? v.doubleValue() : null;
          case PMIX_PROC -> proc(v);
          case PMIX_BYTE_OBJECT -> bytes(v);
          case PMIX_ALLOC_INHERIT ->
              v.isIntegralNumber() && v.canConvertToInt()
                  ? AllocInheritance.of(v.intValue()).orElse(null)
                  : null;
          case PMIX_DATA_ARRAY -> {
            if (!v.isArray()) {
              yield null;
            }
            int before = problems.size();
            List<?> list =
                !v.isEmpty() && v.get(0).isObject() && v.get(0).has("cmd")
                    ? decodeApps(v, at, problems)
                    : decodeArray(v, at, problems);
            yield problems.size() > before ? List.of() : list;
          }
          default -> null;
        };
    if (out == null) {
      problems.add(
          at
              + ": "
              + v
              + " is not a "
              + Values.word(t)
              + " (expected: "
              + Values.expected(key, t)
              + ")");
    } else if (t == PmixDataType.PMIX_DATA_ARRAY && ((List<?>) out).isEmpty() && !v.isEmpty()) {
      return null;
    }
    return out;
  }

  private static final Set<String> APP_MEMBERS = Set.of("cmd", "argv", "maxprocs", "infos");

  /** A data array of apps: every element an app object (D72's app form). */
  private static List<App> decodeApps(JsonNode array, String at, List<String> problems) {
    List<App> out = new ArrayList<>();
    for (int n = 0; n < array.size(); n++) {
      String where = at + "/" + n;
      JsonNode e = array.get(n);
      if (!e.isObject() || !e.has("cmd")) {
        problems.add(where + ": " + kind(e) + " (expected: an app object like the first element)");
        continue;
      }
      int before = problems.size();
      for (Map.Entry<String, JsonNode> m : e.properties()) {
        if (!APP_MEMBERS.contains(m.getKey())) {
          problems.add(
              where
                  + ": unexpected member \""
                  + m.getKey()
                  + "\" (expected: cmd, argv, maxprocs, infos)");
        }
      }
      JsonNode cmd = e.get("cmd");
      if (!cmd.isTextual() || cmd.textValue().isEmpty()) {
        problems.add(where + "/cmd: " + kind(cmd) + " (expected: a non-empty string)");
      }
      List<String> argv = new ArrayList<>();
      JsonNode a = e.get("argv");
      if (a != null) {
        if (!a.isArray()) {
          problems.add(where + "/argv: " + kind(a) + " (expected: an array of strings)");
        } else {
          for (int k = 0; k < a.size(); k++) {
            if (a.get(k).isTextual()) {
              argv.add(a.get(k).textValue());
            } else {
              problems.add(where + "/argv/" + k + ": " + kind(a.get(k)) + " (expected: a string)");
            }
          }
        }
      }
      int maxprocs = 1;
      JsonNode mp = e.get("maxprocs");
      if (mp != null) {
        if (mp.isIntegralNumber() && mp.canConvertToInt() && mp.intValue() >= 1) {
          maxprocs = mp.intValue();
        } else {
          problems.add(where + "/maxprocs: " + kind(mp) + " (expected: an integer >= 1)");
        }
      }
      List<Info> infos = List.of();
      JsonNode in = e.get("infos");
      if (in != null) {
        infos = decodeArray(in, where + "/infos", problems);
      }
      if (problems.size() == before) {
        out.add(new App(cmd.textValue(), argv, maxprocs, infos));
      }
    }
    return out;
  }

  private static Long uint64(JsonNode v) {
    if (!v.isIntegralNumber()) {
      return null;
    }
    BigInteger b = v.bigIntegerValue();
    if (b.signum() < 0 || b.compareTo(UINT64_MAX) > 0) {
      return null;
    }
    return b.longValue();
  }

  private static PmixProc proc(JsonNode v) {
    if (!v.isObject() || v.size() != 2) {
      return null;
    }
    JsonNode ns = v.get("nspace");
    JsonNode rank = v.get("rank");
    if (ns == null
        || !ns.isTextual()
        || ns.textValue().length() > PmixProc.MAX_NSLEN
        || rank == null
        || !rank.isIntegralNumber()
        || !rank.canConvertToLong()
        || rank.longValue() < 0
        || rank.longValue() > Values.UINT32_MAX) {
      return null;
    }
    return new PmixProc(ns.textValue(), rank.longValue());
  }

  private static PmixRegex regex2(JsonNode v) {
    if (!v.isObject() || v.size() != 2 || !v.path("encoding").isTextual()) {
      return null;
    }
    ByteObject b = bytes(v.get("bytes"));
    String enc = v.get("encoding").textValue();
    if (b == null || enc.isEmpty() || enc.length() > 64) {
      return null;
    }
    return PmixRegex.regex2(enc, b.bytes());
  }

  private static ByteObject bytes(JsonNode v) {
    if (v == null || !v.isTextual()) {
      return null;
    }
    try {
      return ByteObject.of(Base64.getDecoder().decode(v.textValue()));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String kind(JsonNode n) {
    if (n == null || n.isMissingNode()) {
      return "missing";
    }
    return "is " + (n.isObject() ? "an object" : n.isArray() ? "an array" : n.toString());
  }
}
