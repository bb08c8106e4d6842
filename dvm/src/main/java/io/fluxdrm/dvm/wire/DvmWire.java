package io.fluxdrm.dvm.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The JSON payloads of {@link DvmTopics}, pure (no socket, no loop). Info arrays travel in {@link
 * InfoCodec}'s form. A payload whose shape is wrong (a member missing, of the wrong JSON type, or
 * unknown) is refused with {@link RpcException} EPROTO naming the topic and the JSON Pointer of the
 * member; an info array that does not decode (a value that does not fit its key's type) is not a
 * protocol error but a PMIx one: {@link BadInfos}, which the service answers with {@code
 * PMIX_ERR_BAD_PARAM} and the problems under {@link #ERROR_KEY}.
 */
public final class DvmWire {
  private DvmWire() {}

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** The largest PMIx session id ({@code uint32_t}); also "every session" (PRRTE §7.4.4.2). */
  public static final long UINT32_MAX = 0xFFFF_FFFFL;

  /**
   * The key of the info a DVM adds to an error answer to say what was wrong ({@code PMIX_STRING}),
   * the core's {@link io.fluxdrm.dvm.core.DvmKeys#REASON} (decision D358); not a PMIx key, so a
   * PMIx client ignores it.
   */
  public static final String ERROR_KEY = io.fluxdrm.dvm.core.DvmKeys.REASON;

  /** Info arrays whose entries do not decode: answered {@code PMIX_ERR_BAD_PARAM}. */
  public static final class BadInfos extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadInfos(String message) {
      super(message, null, false, false);
    }

    /** The answer: {@code PMIX_ERR_BAD_PARAM} with the problems under {@link #ERROR_KEY}. */
    public StatusInfos answer() {
      return error(PmixStatus.PMIX_ERR_BAD_PARAM, getMessage());
    }
  }

  /**
   * An error answer carrying a text.
   *
   * @param status the status
   * @param text what was wrong
   * @return the answer
   */
  public static StatusInfos error(PmixStatus status, String text) {
    return new StatusInfos(status, List.of(new Info(ERROR_KEY, PmixDataType.PMIX_STRING, text)));
  }

  /**
   * The text under {@link #ERROR_KEY}, if the answer has one.
   *
   * @param a an answer
   * @return the text
   */
  public static Optional<String> errorText(StatusInfos a) {
    return a.infos().stream()
        .filter(i -> i.key().equals(ERROR_KEY) && i.type() == PmixDataType.PMIX_STRING)
        .map(Info::stringValue)
        .findFirst();
  }

  /** A decoded {@code dvm.alloc} request; the directive is empty for a value PMIx does not name. */
  public record AllocRequest(int code, Optional<AllocDirective> directive, List<Info> infos) {}

  /** A decoded {@code dvm.session-control} request. */
  public record SessionControlRequest(long sessionId, List<Info> directives) {}

  /** A decoded {@code dvm.spawn} request. */
  public record SpawnRequest(List<App> apps, List<Info> jobInfos) {}

  /** A decoded upcall to the scheduler: the requester and the request. */
  public record Upcall<T>(PmixProc requester, T request) {}

  // ---- dvm.alloc

  /** {@code {directive, infos}}. */
  public static ObjectNode allocRequest(AllocDirective d, List<Info> infos) {
    ObjectNode o = F.objectNode();
    o.put("directive", d.code());
    o.set("infos", InfoCodec.encode(infos));
    return o;
  }

  /** Reads {@code {directive, infos}}. */
  public static AllocRequest readAllocRequest(String topic, ObjectNode p) {
    only(topic, p, "", Set.of("directive", "infos"));
    int code = intIn(topic, p, "directive", 0, 255);
    List<Info> infos = infos(topic, p, "infos");
    return new AllocRequest(code, AllocDirective.of(code), infos);
  }

  // ---- dvm.session-control

  /** {@code {session_id, directives}}. */
  public static ObjectNode sessionControlRequest(long sessionId, List<Info> directives) {
    ObjectNode o = F.objectNode();
    o.put("session_id", sessionId);
    o.set("directives", InfoCodec.encode(directives));
    return o;
  }

  /** Reads {@code {session_id, directives}}. */
  public static SessionControlRequest readSessionControlRequest(String topic, ObjectNode p) {
    only(topic, p, "", Set.of("session_id", "directives"));
    long id = longIn(topic, p, "session_id", 0, UINT32_MAX);
    return new SessionControlRequest(id, infos(topic, p, "directives"));
  }

  // ---- dvm.spawn

  /** {@code {apps: [{cmd, argv, maxprocs, infos}], job_infos}}. */
  public static ObjectNode spawnRequest(List<App> apps, List<Info> jobInfos) {
    ObjectNode o = F.objectNode();
    ArrayNode a = o.putArray("apps");
    for (App app : apps) {
      ObjectNode x = a.addObject();
      x.put("cmd", app.cmd());
      ArrayNode argv = x.putArray("argv");
      app.argv().forEach(argv::add);
      x.put("maxprocs", app.maxprocs());
      x.set("infos", InfoCodec.encode(app.infos()));
    }
    o.set("job_infos", InfoCodec.encode(jobInfos));
    return o;
  }

  /** Reads a spawn request. */
  public static SpawnRequest readSpawnRequest(String topic, ObjectNode p) {
    only(topic, p, "", Set.of("apps", "job_infos"));
    JsonNode a = p.get("apps");
    if (a == null || !a.isArray() || a.isEmpty()) {
      throw proto(topic, "/apps", a, "a non-empty array of apps");
    }
    List<App> apps = new ArrayList<>();
    for (int n = 0; n < a.size(); n++) {
      apps.add(app(topic, a.get(n), "/apps/" + n));
    }
    return new SpawnRequest(apps, infos(topic, p, "job_infos"));
  }

  /** The same checks {@link App} makes, located. */
  private static App app(String topic, JsonNode x, String at) {
    if (!x.isObject()) {
      throw proto(topic, at, x, "an app object");
    }
    ObjectNode o = (ObjectNode) x;
    only(topic, o, at, Set.of("cmd", "argv", "maxprocs", "infos"));
    JsonNode cmd = o.get("cmd");
    if (cmd == null || !cmd.isTextual() || cmd.textValue().isEmpty()) {
      throw proto(topic, at + "/cmd", cmd, "a non-empty string");
    }
    JsonNode argv = o.get("argv");
    if (argv == null || !argv.isArray()) {
      throw proto(topic, at + "/argv", argv, "an array of strings");
    }
    List<String> args = new ArrayList<>();
    for (int n = 0; n < argv.size(); n++) {
      if (!argv.get(n).isTextual()) {
        throw proto(topic, at + "/argv/" + n, argv.get(n), "a string");
      }
      args.add(argv.get(n).textValue());
    }
    int maxprocs = intIn(topic, o, at, "maxprocs", 1, Integer.MAX_VALUE);
    List<Info> infos = infos(topic, o, at, "infos");
    return new App(cmd.textValue(), args, maxprocs, infos);
  }

  /** {@code {status, nspace?}}. */
  public static ObjectNode spawnResult(SpawnResult r) {
    ObjectNode o = F.objectNode();
    o.put("status", r.status().code());
    r.nspace().ifPresent(ns -> o.put("nspace", ns));
    return o;
  }

  /** Reads {@code {status, nspace?}}. */
  public static SpawnResult readSpawnResult(String topic, ObjectNode p) {
    only(topic, p, "", Set.of("status", "nspace"));
    PmixStatus s = status(topic, p);
    JsonNode ns = p.get("nspace");
    if (ns != null && !ns.isTextual()) {
      throw proto(topic, "/nspace", ns, "a string");
    }
    try {
      return new SpawnResult(s, Optional.ofNullable(ns == null ? null : ns.textValue()));
    } catch (IllegalArgumentException e) {
      throw new RpcException(Errno.EPROTO, topic + ": " + e.getMessage());
    }
  }

  // ---- answers

  /** {@code {status, infos}}. */
  public static ObjectNode statusInfos(StatusInfos a) {
    ObjectNode o = F.objectNode();
    o.put("status", a.status().code());
    o.set("infos", InfoCodec.encode(a.infos()));
    return o;
  }

  /** Reads {@code {status, infos}}; an info array that does not decode is a protocol error here. */
  public static StatusInfos readStatusInfos(String topic, ObjectNode p) {
    only(topic, p, "", Set.of("status", "infos"));
    PmixStatus s = status(topic, p);
    try {
      return new StatusInfos(s, infos(topic, p, "infos"));
    } catch (BadInfos e) {
      throw new RpcException(Errno.EPROTO, e.getMessage());
    }
  }

  // ---- events

  /** {@code {codes}}. */
  public static ObjectNode registerRequest(List<Integer> codes) {
    ObjectNode o = F.objectNode();
    ArrayNode a = o.putArray("codes");
    codes.forEach(a::add);
    return o;
  }

  /** Reads {@code {codes}}. */
  public static List<Integer> readRegisterRequest(String topic, ObjectNode p) {
    only(topic, p, "", Set.of("codes"));
    JsonNode a = p.get("codes");
    if (a == null || !a.isArray()) {
      throw proto(topic, "/codes", a, "an array of status codes");
    }
    List<Integer> out = new ArrayList<>();
    for (int n = 0; n < a.size(); n++) {
      JsonNode c = a.get(n);
      if (!c.isIntegralNumber() || !c.canConvertToInt()) {
        throw proto(topic, "/codes/" + n, c, "a status code (int)");
      }
      out.add(c.intValue());
    }
    return out;
  }

  /** The first response of a registration: {@code {status, ref}}. */
  public static ObjectNode registered(PmixStatus s, long ref) {
    ObjectNode o = F.objectNode();
    o.put("status", s.code());
    o.put("ref", ref);
    return o;
  }

  /** {@code {ref}}, of a deregistration. */
  public static ObjectNode refRequest(long ref) {
    ObjectNode o = F.objectNode();
    o.put("ref", ref);
    return o;
  }

  /** Reads {@code {ref}}. */
  public static long readRef(String topic, ObjectNode p) {
    return longIn(topic, p, "ref", 0, Long.MAX_VALUE);
  }

  /** An event response: {@code {event: {status, source, infos, range, target?}}}. */
  public static ObjectNode event(Event e) {
    ObjectNode o = F.objectNode();
    ObjectNode x = o.putObject("event");
    x.put("status", e.status());
    x.set("source", proc(e.source()));
    x.set("infos", InfoCodec.encode(e.infos()));
    x.put("range", e.range().name());
    e.target().ifPresent(t -> x.set("target", proc(t)));
    return o;
  }

  /** Reads an event response. */
  public static Event readEvent(String topic, ObjectNode p) {
    only(topic, p, "", Set.of("event"));
    JsonNode x = p.get("event");
    if (x == null || !x.isObject()) {
      throw proto(topic, "/event", x, "an event object");
    }
    ObjectNode o = (ObjectNode) x;
    only(topic, o, "/event", Set.of("status", "source", "infos", "range", "target"));
    JsonNode st = o.get("status");
    if (st == null || !st.isIntegralNumber() || !st.canConvertToInt()) {
      throw proto(topic, "/event/status", st, "a status code (int)");
    }
    PmixProc source = readProc(topic, o.get("source"), "/event/source");
    JsonNode r = o.get("range");
    Event.Range range;
    try {
      range = Event.Range.valueOf(r == null ? "" : r.asText());
    } catch (IllegalArgumentException e) {
      throw proto(topic, "/event/range", r, "a PMIX_RANGE_* name");
    }
    Optional<PmixProc> target =
        o.has("target")
            ? Optional.of(readProc(topic, o.get("target"), "/event/target"))
            : Optional.empty();
    List<Info> infos;
    try {
      infos = infos(topic, o, "/event", "infos");
    } catch (BadInfos e) {
      throw new RpcException(Errno.EPROTO, e.getMessage());
    }
    try {
      return new Event(st.intValue(), source, infos, target, range);
    } catch (IllegalArgumentException e) {
      throw new RpcException(Errno.EPROTO, topic + ": /event: " + e.getMessage());
    }
  }

  // ---- upcalls to the scheduler

  /** {@code {requester, directive, infos}}. */
  public static ObjectNode allocUpcall(PmixProc requester, AllocDirective d, List<Info> infos) {
    ObjectNode o = allocRequest(d, infos);
    o.set("requester", proc(requester));
    return o;
  }

  /** Reads {@code {requester, directive, infos}}. */
  public static Upcall<AllocRequest> readAllocUpcall(String topic, ObjectNode p) {
    PmixProc r = readProc(topic, p.get("requester"), "/requester");
    ObjectNode rest = p.deepCopy();
    rest.remove("requester");
    return new Upcall<>(r, readAllocRequest(topic, rest));
  }

  /** {@code {requester, session_id, directives}}. */
  public static ObjectNode sessionControlUpcall(
      PmixProc requester, long sessionId, List<Info> directives) {
    ObjectNode o = sessionControlRequest(sessionId, directives);
    o.set("requester", proc(requester));
    return o;
  }

  /** Reads {@code {requester, session_id, directives}}. */
  public static Upcall<SessionControlRequest> readSessionControlUpcall(String topic, ObjectNode p) {
    PmixProc r = readProc(topic, p.get("requester"), "/requester");
    ObjectNode rest = p.deepCopy();
    rest.remove("requester");
    return new Upcall<>(r, readSessionControlRequest(topic, rest));
  }

  // ---- pieces

  /** {@code {nspace, rank}}. */
  public static ObjectNode proc(PmixProc p) {
    ObjectNode o = F.objectNode();
    o.put("nspace", p.nspace());
    o.put("rank", p.rank());
    return o;
  }

  static PmixProc readProc(String topic, JsonNode v, String at) {
    if (v == null || !v.isObject()) {
      throw proto(topic, at, v, "a proc {nspace, rank}");
    }
    only(topic, (ObjectNode) v, at, Set.of("nspace", "rank"));
    JsonNode ns = v.get("nspace");
    if (ns == null || !ns.isTextual()) {
      throw proto(topic, at + "/nspace", ns, "a string");
    }
    long rank = longIn(topic, (ObjectNode) v, at, "rank", 0, UINT32_MAX);
    try {
      return new PmixProc(ns.textValue(), rank);
    } catch (PmixException e) {
      throw new RpcException(Errno.EPROTO, topic + ": " + at + ": " + e.getMessage());
    }
  }

  private static PmixStatus status(String topic, ObjectNode p) {
    JsonNode s = p.get("status");
    if (s == null || !s.isIntegralNumber() || !s.canConvertToInt()) {
      throw proto(topic, "/status", s, "a PMIx status code (int)");
    }
    return PmixStatus.byCode(s.intValue())
        .orElseThrow(
            () ->
                new RpcException(
                    Errno.EPROTO,
                    topic + ": /status: " + s + " is not a PMIx status this side knows"));
  }

  private static List<Info> infos(String topic, ObjectNode p, String member) {
    return infos(topic, p, "", member);
  }

  private static List<Info> infos(String topic, ObjectNode p, String at, String member) {
    JsonNode a = p.get(member);
    if (a == null || !a.isArray()) {
      throw proto(topic, at + "/" + member, a, "an info array");
    }
    try {
      return InfoCodec.decode(a);
    } catch (PmixException e) {
      List<String> located = new ArrayList<>();
      for (String problem : e.problems()) {
        located.add(at + "/" + member + problem);
      }
      throw new BadInfos(topic + ": " + String.join("; ", located));
    }
  }

  private static int intIn(String topic, ObjectNode p, String member, int min, int max) {
    return intIn(topic, p, "", member, min, max);
  }

  private static int intIn(String topic, ObjectNode p, String at, String member, int min, int max) {
    return (int) longIn(topic, p, at, member, min, max);
  }

  private static long longIn(String topic, ObjectNode p, String member, long min, long max) {
    return longIn(topic, p, "", member, min, max);
  }

  private static long longIn(
      String topic, ObjectNode p, String at, String member, long min, long max) {
    JsonNode v = p.get(member);
    if (v == null
        || !v.isIntegralNumber()
        || !v.canConvertToLong()
        || v.longValue() < min
        || v.longValue() > max) {
      throw proto(topic, at + "/" + member, v, "an integer from " + min + " to " + max);
    }
    return v.longValue();
  }

  private static void only(String topic, ObjectNode p, String at, Set<String> allowed) {
    for (Iterator<String> it = p.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!allowed.contains(k)) {
        throw new RpcException(
            Errno.EPROTO,
            topic
                + ": "
                + at
                + "/"
                + k
                + ": unknown member (expected: one of "
                + new TreeSet<>(allowed)
                + ")");
      }
    }
  }

  private static RpcException proto(String topic, String at, JsonNode found, String expected) {
    String what =
        found == null
            ? "missing"
            : found.isObject() ? "an object" : found.isArray() ? "an array" : found.toString();
    return new RpcException(
        Errno.EPROTO, topic + ": " + at + ": " + what + " (expected: " + expected + ")");
  }
}
