package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmHarness.info;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.InvariantsExtension;
import io.fluxdrm.testkit.StepTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The DVM scenarios as step tables: each scenario a fresh {@link DvmHarness} and a table of rows
 * {@code input | answer | state after}, the DVM's invariants checked after every step (the
 * harness's own checks) and once more at the end of the scenario.
 *
 * <p>Inputs ({@code WHO} a client the scenario named, or {@code tool:NSPACE:UID}, {@code
 * app:NSPACE:RANK}; {@code $v} a value bound earlier):
 *
 * <ul>
 *   <li>requests: {@code sc WHO VIA ID INFO...} (session control), {@code alloc WHO DIRECTIVE
 *       INFO...}, {@code spawn WHO APPS INFO...} ({@code APPS}: {@code sleep:NP}, or {@code @name}
 *       for apps the scenario named), {@code register WHO} (every event; {@code >v} binds the
 *       handler's reference);
 *   <li>what the world reports: {@code attach WHO} (a scheduler), {@code launched NS}, {@code
 *       started HOST}, {@code left HOST}, {@code failed HOST}, {@code gone WHO}, {@code exit NS
 *       CODE} (each process), {@code fire-all} (every armed timer);
 *   <li>the harness: {@code set autoDaemons|autoLaunch|autoLaunchApps true|false};
 *   <li>{@code check NAME}: a step of the scenario's own, in Java.
 * </ul>
 *
 * An {@code INFO} is {@code KEY} (a flag: true) or {@code KEY=VALUE}, the key a short name ({@code
 * inst pause resume terminate preempt restore complete extend signal nodes apps job ctrlid}) or a
 * {@link PmixKey} name without {@code PMIX_} in any case ({@code alloc_time=5}); the value is read
 * as the key's type, {@code @name} is a value the scenario named, and {@code @name} alone an entry
 * it named.
 *
 * <p>The answer column, checked after any input when not empty, is about the last request: {@code
 * pending} (no answer yet), or a status without {@code PMIX_} ({@code answered}: any) followed by
 * {@code KEY>v} (bind the answer's value of KEY), {@code KEY=VALUE} (its value), {@code !KEY} (no
 * such entry), and last {@code reason~TEXT} (the reason contains TEXT). The state column: checks
 * separated by {@code ;} (see {@link #state}).
 */
final class DvmSteps {

  /** A step of a scenario's own. */
  @FunctionalInterface
  interface Check {
    void run(DvmSteps s) throws Exception;
  }

  /** A named step of a scenario's own. */
  record Named(String name, Check check) {}

  static Named check(String name, Check check) {
    return new Named(name, check);
  }

  private static final Map<String, String> SHORT =
      Map.ofEntries(
          Map.entry("inst", PmixKey.PMIX_SESSION_INSTANTIATE),
          Map.entry("pause", PmixKey.PMIX_SESSION_PAUSE),
          Map.entry("resume", PmixKey.PMIX_SESSION_RESUME),
          Map.entry("terminate", PmixKey.PMIX_SESSION_TERMINATE),
          Map.entry("preempt", PmixKey.PMIX_SESSION_PREEMPT),
          Map.entry("restore", PmixKey.PMIX_SESSION_RESTORE),
          Map.entry("complete", PmixKey.PMIX_SESSION_COMPLETE),
          Map.entry("extend", PmixKey.PMIX_SESSION_EXTEND),
          Map.entry("signal", PmixKey.PMIX_SESSION_SIGNAL),
          Map.entry("nodes", PmixKey.PMIX_ALLOC_NODE_LIST),
          Map.entry("apps", PmixKey.PMIX_SESSION_APP),
          Map.entry("job", PmixKey.PMIX_SESSION_JOB),
          Map.entry("ctrlid", PmixKey.PMIX_SESSION_CTRL_ID),
          Map.entry("reason", DvmKeys.REASON));

  private static final Pattern VAR = Pattern.compile("\\$([A-Za-z0-9_]+)");

  final DvmHarness h;
  final InvariantsExtension inv;

  /** Clients by the name the table gives them. */
  final Map<String, Client> clients = new LinkedHashMap<>();

  /** Values and entries the scenario names ({@code @name}). */
  final Map<String, Object> named = new LinkedHashMap<>();

  /** Values bound by the table ({@code $v}). */
  final Map<String, String> vars = new LinkedHashMap<>();

  /** The last request's id and answer (null while pending). */
  long lastRequest;

  StatusInfos last;

  private final Map<String, Check> checks = new LinkedHashMap<>();
  private String where = "";

  DvmSteps(DvmConfig config) {
    this.inv = new InvariantsExtension();
    this.h = new DvmHarness(config, inv);
  }

  /**
   * A scenario: a fresh DVM of {@code config}, {@code setup} on it, the table, the invariants at
   * the end.
   */
  static StepTable.Scenario scenario(
      String id,
      String title,
      Supplier<DvmConfig> config,
      Check setup,
      String table,
      Named... checks) {
    return new StepTable.Scenario(
        id,
        title,
        () -> {
          DvmSteps s = new DvmSteps(config.get());
          for (Named n : checks) {
            if (s.checks.put(n.name(), n.check()) != null) {
              throw new IllegalArgumentException("two checks named " + n.name());
            }
          }
          setup.run(s);
          s.run(table);
          s.inv.check("the end of " + (id + " " + title).strip());
        });
  }

  /** A scenario as above whose table may also use the checks {@code common} of its class. */
  static StepTable.Scenario scenario(
      String id,
      String title,
      Supplier<DvmConfig> config,
      Check setup,
      String table,
      List<Named> common,
      Named... checks) {
    List<Named> all = new ArrayList<>(common);
    all.addAll(Arrays.asList(checks));
    return scenario(id, title, config, setup, table, all.toArray(Named[]::new));
  }

  /** The value bound to {@code v}. */
  String var(String v) {
    String x = vars.get(v);
    if (x == null) {
      throw new IllegalArgumentException(where + ": nothing bound to $" + v);
    }
    return x;
  }

  Client client(String name) {
    String[] t = name.split(":");
    if (t[0].equals("tool") && t.length == 3) {
      return DvmHarness.tool(t[1], Long.parseLong(t[2]));
    }
    if (t[0].equals("app") && t.length == 3) {
      return DvmHarness.app(t[1], Long.parseLong(t[2]));
    }
    Client c = clients.get(name);
    if (c == null) {
      throw new IllegalArgumentException(where + ": no client " + name);
    }
    return c;
  }

  void run(String table) {
    for (StepTable.Row row : StepTable.parse(table, 3)) {
      where = row.where();
      String before = DvmHarness.snapshot(h.core.view());
      step(subst(row.cell(0)).split("\\s+"));
      last = lastRequest == 0 ? null : h.answers.get(lastRequest);
      if (!row.cell(1).isEmpty()) {
        answer(subst(row.cell(1)));
      }
      for (String c : row.cell(2).split(";")) {
        if (!c.isBlank()) {
          state(subst(c.strip()), before);
        }
      }
    }
  }

  private String subst(String s) {
    Matcher m = VAR.matcher(s);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(b, Matcher.quoteReplacement(var(m.group(1))));
    }
    return m.appendTail(b).toString();
  }

  /** Runs one input. */
  private void step(String[] in) {
    List<String> rest = Arrays.asList(in).subList(1, in.length);
    switch (in[0]) {
      case "sc" -> {
        List<Info> infos = infos(rest.subList(3, rest.size()));
        request(
            new DvmEvent.SessionControl(
                h.nextRequestId(),
                client(rest.get(0)),
                rest.get(1),
                Long.parseLong(rest.get(2)),
                infos));
      }
      case "alloc" -> {
        List<Info> infos = infos(rest.subList(2, rest.size()));
        request(
            new DvmEvent.AllocationRequest(
                h.nextRequestId(),
                client(rest.get(0)),
                h.master(),
                AllocDirective.valueOf(rest.get(1)),
                infos));
      }
      case "spawn" -> {
        List<Info> infos = infos(rest.subList(2, rest.size()));
        request(
            new DvmEvent.Spawn(
                h.nextRequestId(), client(rest.get(0)), h.master(), apps(rest.get(1)), infos));
      }
      case "register" -> {
        long ref = h.registerAll(client(rest.get(0)));
        if (rest.size() > 1) {
          vars.put(bindName(rest.get(1)), Long.toString(ref));
        }
      }
      case "attach" -> h.event(new DvmEvent.SchedulerAttached(client(rest.get(0))));
      case "launched" -> h.event(new DvmEvent.JobLaunched(rest.get(0)));
      case "started" -> h.event(new DvmEvent.DaemonStarted(rest.get(0)));
      case "left" -> h.event(new DvmEvent.DaemonLeft(rest.get(0)));
      case "failed" -> h.event(new DvmEvent.DaemonFailed(rest.get(0), "injected failure"));
      case "gone" -> h.event(new DvmEvent.ClientGone(client(rest.get(0)).proc()));
      case "exit" -> h.exitAll(rest.get(0), Integer.parseInt(rest.get(1)));
      case "fire-all" -> h.fireAll();
      case "set" -> {
        boolean v = Boolean.parseBoolean(rest.get(1));
        switch (rest.get(0)) {
          case "autoDaemons" -> h.autoDaemons = v;
          case "autoLaunch" -> h.autoLaunch = v;
          case "autoLaunchApps" -> h.autoLaunchApps = v;
          default -> throw new IllegalArgumentException(where + ": no setting " + rest.get(0));
        }
      }
      case "check" -> custom(rest);
      default -> throw new IllegalArgumentException(where + ": unknown input " + in[0]);
    }
  }

  /** The words after a custom check's name in the row that runs it. */
  List<String> args = List.of();

  private void custom(List<String> words) {
    String name = words.get(0);
    args = List.copyOf(words.subList(1, words.size()));
    Check c = checks.get(name);
    if (c == null) {
      throw new IllegalArgumentException(where + ": no check " + name);
    }
    try {
      c.run(this);
    } catch (Exception e) {
      throw new AssertionError(where + ": " + e, e);
    }
    inv.check(where);
  }

  private static String bindName(String t) {
    if (!t.startsWith(">")) {
      throw new IllegalArgumentException("expected >name, found " + t);
    }
    return t.substring(1);
  }

  private void request(DvmEvent.Request e) {
    lastRequest = e.requestId();
    h.event(e);
    last = h.answers.get(e.requestId());
  }

  @SuppressWarnings("unchecked")
  private List<App> apps(String spec) {
    if (spec.startsWith("@")) {
      return (List<App>) namedValue(spec);
    }
    List<App> out = new ArrayList<>();
    for (String a : spec.split(",")) {
      String[] t = a.split(":");
      if (!t[0].equals("sleep")) {
        throw new IllegalArgumentException(where + ": apps " + spec + " (expected: sleep:NP)");
      }
      out.add(DvmHarness.sleep(Integer.parseInt(t[1])));
    }
    return out;
  }

  private Object namedValue(String ref) {
    Object v = named.get(ref.substring(1));
    if (v == null) {
      throw new IllegalArgumentException(where + ": nothing named " + ref);
    }
    return v;
  }

  static String key(String name) {
    String k = SHORT.get(name);
    if (k != null) {
      return k;
    }
    k = PmixKey.byName().get("PMIX_" + name.toUpperCase(java.util.Locale.ROOT));
    if (k == null) {
      throw new IllegalArgumentException("no key " + name);
    }
    return k;
  }

  private List<Info> infos(List<String> tokens) {
    List<Info> out = new ArrayList<>();
    for (String t : tokens) {
      if (t.startsWith("@")) {
        out.add((Info) namedValue(t));
        continue;
      }
      int eq = t.indexOf('=');
      String key = key(eq < 0 ? t : t.substring(0, eq));
      out.add(eq < 0 ? Info.of(key, true) : entry(key, t.substring(eq + 1)));
    }
    return out;
  }

  private Info entry(String key, String v) {
    if (v.startsWith("@")) {
      Object x = namedValue(v);
      return x instanceof List<?> l && key.equals(PmixKey.PMIX_SESSION_APP)
          ? new Info(key, PmixDataType.PMIX_DATA_ARRAY, l)
          : Info.of(key, x);
    }
    if (key.equals(PmixKey.PMIX_SESSION_APP)) {
      return new Info(key, PmixDataType.PMIX_DATA_ARRAY, apps(v));
    }
    PmixDataType t = PmixKey.typeOf(key).orElseThrow();
    Object value =
        switch (t) {
          case PMIX_BOOL -> Boolean.parseBoolean(v);
          case PMIX_INT, PMIX_INT32, PMIX_STATUS -> Integer.parseInt(v);
          case PMIX_UINT, PMIX_UINT32, PMIX_UINT64, PMIX_INT64, PMIX_SIZE, PMIX_TIME ->
              Long.parseLong(v);
          case PMIX_FLOAT -> Float.parseFloat(v);
          case PMIX_PROC -> client(v).proc();
          case PMIX_ALLOC_INHERIT -> AllocInheritance.valueOf(v);
          default -> v;
        };
    return Info.of(key, value);
  }

  private void answer(String expect) {
    String at = where + " (answer)";
    if (expect.equals("pending")) {
      assertThat(last).as(at).isNull();
      return;
    }
    assertThat(last).as(at + ": no answer").isNotNull();
    String reason = null;
    int r = expect.indexOf("reason~");
    if (r >= 0) {
      reason = expect.substring(r + "reason~".length());
      expect = expect.substring(0, r).strip();
    }
    String[] t = expect.split("\\s+");
    if (!t[0].equals("answered")) {
      assertThat(last.status()).as(at).isEqualTo(PmixStatus.valueOf("PMIX_" + t[0]));
    }
    for (String item : Arrays.asList(t).subList(1, t.length)) {
      if (item.startsWith("!")) {
        assertThat(info(last, key(item.substring(1)))).as(at + " " + item).isEmpty();
      } else if (item.contains(">")) {
        String[] kv = item.split(">", 2);
        vars.put(kv[1], text(info(last, key(kv[0])).orElseThrow(() -> missing(at, kv[0]))));
      } else {
        String[] kv = item.split("=", 2);
        assertThat(text(info(last, key(kv[0])).orElseThrow(() -> missing(at, kv[0]))))
            .as(at + " " + kv[0])
            .isEqualTo(kv[1]);
      }
    }
    if (reason != null) {
      assertThat(info(last, DvmKeys.REASON).orElseThrow(() -> missing(at, "reason")).stringValue())
          .as(at + " reason")
          .contains(reason);
    }
  }

  /**
   * The scheduler answers the DVM's {@code call} with {@code answer}; returns what the request the
   * call was for is answered now.
   */
  StatusInfos schedulerAnswers(DvmDecision.ToScheduler call, StatusInfos answer) {
    h.event(new DvmEvent.SchedulerAnswered(call.callId(), answer));
    return h.answers.get(call.requestId().getAsLong());
  }

  private static AssertionError missing(String at, String key) {
    return new AssertionError(at + ": no entry " + key);
  }

  private static String text(Info i) {
    return i.value() instanceof String || i.type() == PmixDataType.PMIX_REGEX2
        ? i.stringValue()
        : String.valueOf(i.value());
  }

  /**
   * One check of the state column:
   *
   * <ul>
   *   <li>{@code unchanged}: the view as before the step;
   *   <li>{@code signals: NS SIG, ...} every signal sent so far, in order ({@code -}: none);
   *   <li>{@code sessions: -} no session; {@code session ID absent|present|paused|not paused};
   *       {@code session ID hosts H...} (in order);
   *   <li>{@code pool has H...}, {@code pool lacks H...}, {@code pool is H...} (any order);
   *   <li>{@code daemon HOST STATE}; {@code node HOST absent}; {@code stopped H...}: every daemon
   *       stopped so far, in order;
   *   <li>{@code job NS absent}, {@code job NS STATE}, {@code job NS stopped|not stopped} (its
   *       recorded state);
   *   <li>{@code launched NS on H...}: its launch's placements, in rank order;
   *   <li>{@code all stopped NS}, {@code not all stopped NS}, {@code none stopped NS} (its
   *       processes), {@code live NS N};
   *   <li>{@code timers: D, ...} the armed timers' durations ({@code PT5S}; {@code -}: none), in
   *       order; {@code limit ID D} a session's time limit ({@code -}: none);
   *   <li>{@code launches: -}: no job launched;
   *   <li>{@code check NAME}: a check of the scenario's own.
   * </ul>
   */
  private void state(String c, String before) {
    String at = where + " (state: " + c + ")";
    DvmView v = h.core.view();
    String[] t = c.split("\\s+");
    List<String> tail = Arrays.asList(t).subList(Math.min(2, t.length), t.length);
    if (c.equals("unchanged")) {
      assertThat(DvmHarness.snapshot(v)).as(at).isEqualTo(before);
    } else if (c.startsWith("signals:")) {
      String list = c.substring("signals:".length()).strip();
      List<String> want =
          list.equals("-") ? List.of() : Arrays.stream(list.split(",")).map(String::strip).toList();
      assertThat(h.signals).as(at).containsExactlyElementsOf(want);
    } else if (c.equals("sessions: -")) {
      assertThat(v.sessions()).as(at).isEmpty();
    } else if (c.equals("launches: -")) {
      assertThat(h.decisions(DvmDecision.LaunchJob.class)).as(at).isEmpty();
    } else if (t[0].equals("session")) {
      Optional<DvmView.SessionView> s = v.session(Long.parseLong(t[1]));
      String what = String.join(" ", Arrays.asList(t).subList(2, t.length));
      switch (t[2]) {
        case "absent" -> assertThat(s).as(at).isEmpty();
        case "present" -> assertThat(s).as(at).isPresent();
        case "paused" ->
            assertThat(s.orElseThrow().has(DvmView.SessionFlag.PAUSED)).as(at).isTrue();
        case "hosts" ->
            assertThat(s.orElseThrow().hosts())
                .as(at)
                .containsExactlyElementsOf(Arrays.asList(t).subList(3, t.length));
        default -> {
          assertThat(what).as(at).isEqualTo("not paused");
          assertThat(s.orElseThrow().has(DvmView.SessionFlag.PAUSED)).as(at).isFalse();
        }
      }
    } else if (t[0].equals("pool")) {
      switch (t[1]) {
        case "has" -> assertThat(v.pool()).as(at).containsAll(tail);
        case "lacks" -> assertThat(v.pool()).as(at).doesNotContainAnyElementsOf(tail);
        case "is" -> assertThat(v.pool()).as(at).containsExactlyInAnyOrderElementsOf(tail);
        default -> throw new IllegalArgumentException(at + ": unknown check");
      }
    } else if (t[0].equals("stopped")) {
      assertThat(h.decisions(DvmDecision.StopDaemon.class))
          .as(at)
          .extracting(DvmDecision.StopDaemon::host)
          .containsExactlyElementsOf(Arrays.asList(t).subList(1, t.length));
    } else if (t[0].equals("daemon")) {
      assertThat(v.node(t[1]).orElseThrow().daemon()).as(at).isEqualTo(DaemonState.valueOf(t[2]));
    } else if (t[0].equals("node") && t[2].equals("absent")) {
      assertThat(v.node(t[1])).as(at).isEmpty();
    } else if (t[0].equals("job")) {
      Optional<DvmView.JobView> j = v.job(t[1]);
      String what = String.join(" ", Arrays.asList(t).subList(2, t.length));
      switch (what) {
        case "absent" -> assertThat(j).as(at).isEmpty();
        case "stopped" -> assertThat(j.orElseThrow().stopped()).as(at).isTrue();
        case "not stopped" -> assertThat(j.orElseThrow().stopped()).as(at).isFalse();
        default ->
            assertThat(j.orElseThrow().state()).as(at).isEqualTo(DvmView.JobState.valueOf(what));
      }
    } else if (t[0].equals("launched") && t[2].equals("on")) {
      List<DvmDecision.LaunchJob> l =
          h.decisions(DvmDecision.LaunchJob.class, x -> x.nspace().equals(t[1]));
      assertThat(l).as(at).isNotEmpty();
      assertThat(l.get(l.size() - 1).procs())
          .as(at)
          .extracting(DvmDecision.Placement::host)
          .containsExactlyElementsOf(Arrays.asList(t).subList(3, t.length));
    } else if (c.startsWith("timers:")) {
      String list = c.substring("timers:".length()).strip();
      List<Duration> want =
          list.equals("-")
              ? List.of()
              : Arrays.stream(list.split(",")).map(x -> Duration.parse(x.strip())).toList();
      assertThat(h.timers.values()).as(at).containsExactlyElementsOf(want);
    } else if (t[0].equals("limit")) {
      Optional<Duration> l = v.session(Long.parseLong(t[1])).orElseThrow().timeLimit();
      if (t[2].equals("-")) {
        assertThat(l).as(at).isEmpty();
      } else {
        assertThat(l).as(at).contains(Duration.parse(t[2]));
      }
    } else if (c.startsWith("not all stopped ")) {
      assertThat(h.allStopped(t[3])).as(at).isFalse();
    } else if (c.startsWith("all stopped ")) {
      assertThat(h.allStopped(t[2])).as(at).isTrue();
    } else if (c.startsWith("none stopped ")) {
      assertThat(h.procs.get(t[2]).values()).as(at).noneMatch(p -> p.stopped);
    } else if (t[0].equals("live")) {
      assertThat(h.liveProcs(t[1])).as(at).isEqualTo(Integer.parseInt(t[2]));
    } else if (t[0].equals("check")) {
      custom(Arrays.asList(t).subList(1, t.length));
    } else {
      throw new IllegalArgumentException(at + ": unknown check");
    }
  }
}
