package io.fluxdrm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxdrm.rpc.fixture.FluxPeer;
import io.fluxdrm.rset.ResourceSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A real flux-core instance ({@link FluxPeer}) whose scheduler is {@code fluxdrm sched --flux-uri}
 * in a child JVM ({@link SchedProcess}), for the {@code flux-live} ITs: the steps a user takes
 * (docs/operations.md) and the checks that flux's own view agrees with fluxdrm's.
 */
final class FluxLive implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  /** Jobs of the test execution system: no processes, they end after this long. */
  static final String QUICK = "--setattr=system.exec.test.run_duration=0.01s";

  /** Test-execution jobs that run until canceled (or five minutes). */
  static final String LONG = "--setattr=system.exec.test.run_duration=300s";

  final Path dir;
  final FluxPeer peer;
  SchedProcess sched;
  private int schedRuns;

  private FluxLive(Path dir, FluxPeer peer) {
    this.dir = dir;
    this.peer = peer;
  }

  /** Starts an instance (flux-core's sched-simple still loaded). */
  static FluxLive start(Path dir, FluxPeer.Options options) throws IOException {
    return new FluxLive(dir, FluxPeer.start(dir.resolve("flux"), options));
  }

  /**
   * Gives the instance a fake R ({@code flux R encode ARGS}; sched-simple must be unloaded), as the
   * peer's README does: reload it into the resource module, forced up, not verified.
   */
  void fakeR(String... encodeArgs) throws IOException {
    List<String> args = new ArrayList<>(List.of("R", "encode"));
    args.addAll(List.of(encodeArgs));
    String r = peer.ok(args.toArray(String[]::new));
    Path file = dir.resolve("R.json");
    Files.writeString(file, r, StandardCharsets.UTF_8);
    peer.ok("resource", "reload", "-f", file.toString());
    peer.ok("module", "reload", "resource", "monitor-force-up", "noverify");
  }

  /** {@code flux module remove sched-simple}. */
  void removeSchedSimple() throws IOException {
    peer.ok("module", "remove", "sched-simple");
  }

  /** {@code flux module load sched-simple}. */
  void loadSchedSimple() throws IOException {
    peer.ok("module", "load", "sched-simple");
  }

  /** Starts {@code fluxdrm sched --flux-uri URI ARGS} and waits until it is ready. */
  SchedProcess startFluxdrm(String... args) throws IOException, InterruptedException {
    List<String> a = new ArrayList<>(List.of("--flux-uri", peer.uri()));
    a.addAll(List.of(args));
    sched = SchedProcess.start(dir, "fluxdrm-" + (++schedRuns), a.toArray(String[]::new));
    sched.awaitLog("ready: attached");
    return sched;
  }

  /** {@code flux submit ARGS}: the job id (f58). */
  String submit(String... args) throws IOException {
    List<String> a = new ArrayList<>(List.of("submit"));
    a.addAll(List.of(args));
    return peer.ok(a.toArray(String[]::new)).strip();
  }

  /** Waits until the job is inactive and returns its result (COMPLETED, FAILED, CANCELED...). */
  String waitInactive(String id) throws IOException {
    peer.ok("job", "wait-event", "-t", "60", id, "clean");
    return peer.ok("jobs", "-no", "{result}", id).strip();
  }

  /** Waits until the job has the event (alloc, start, ...). */
  void waitEvent(String id, String event) throws IOException {
    peer.ok("job", "wait-event", "-t", "60", id, event);
  }

  /** The job's R as flux holds it ({@code flux job info ID R}). */
  ResourceSet r(String id) throws IOException {
    return ResourceSet.parse(peer.ok("job", "info", id, "R"));
  }

  /** The job's R as the KVS holds it ({@code job.<id>.R}): what a realloc grant rewrites. */
  ResourceSet kvsR(String id) throws IOException {
    String key = peer.ok("job", "id", "--to=kvs", id).strip() + ".R";
    return ResourceSet.parse(peer.ok("kvs", "get", key));
  }

  /** The job's eventlog entries ({@code flux job eventlog --format=json}), oldest first. */
  List<JsonNode> eventlog(String id) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (String line : peer.ok("job", "eventlog", "--format=json", id).split("\n")) {
      if (!line.isBlank()) {
        out.add(JSON.readTree(line));
      }
    }
    return out;
  }

  /**
   * A realloc request sent from Python ({@code flux python}) as a real client would: {@code TOPIC
   * {KEY: JOB, "spec_add": SPEC}}, as the instance owner or, with {@code guest}, as uid 65534
   * ({@code setpriv}); the answer, or {@code {"errno", "error"}} for an error response.
   */
  JsonNode pythonRealloc(String topic, String key, long job, String spec, boolean guest)
      throws IOException {
    String py =
        "import flux, json, sys\n"
            + "h = flux.Flux()\n"
            + "try:\n"
            + "    r = h.rpc(sys.argv[1], {sys.argv[2]: int(sys.argv[3]),"
            + " 'spec_add': json.loads(sys.argv[4])}).get()\n"
            + "    print(json.dumps(r))\n"
            + "except OSError as e:\n"
            + "    print(json.dumps({'errno': e.errno, 'error': e.strerror}))\n";
    List<String> cmd = new ArrayList<>();
    if (guest) {
      cmd.addAll(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
    }
    cmd.addAll(
        List.of(
            FluxPeer.fluxCommand().toString(),
            "python",
            "-c",
            py,
            topic,
            key,
            Long.toString(job),
            spec));
    FluxPeer.Result r = peer.exec(cmd);
    if (r.status() != 0) {
      throw new AssertionError(r.describe());
    }
    return JSON.readTree(r.out());
  }

  /** The job's exception note, or null. */
  String exceptionNote(String id) throws IOException {
    for (String line : peer.ok("job", "eventlog", "--format=json", id).split("\n")) {
      JsonNode e = JSON.readTree(line);
      if (e.path("name").asText().equals("exception")) {
        return e.path("context").path("note").asText();
      }
    }
    return null;
  }

  /** Job ids (f58) in a state: {@code flux jobs -no {id} --filter=STATE}. */
  List<String> jobs(String filter) throws IOException {
    return (filter.equals("all")
            ? peer.ok("jobs", "-no", "{id.f58}", "-a")
            : peer.ok("jobs", "-no", "{id.f58}", "--filter=" + filter))
        .lines()
        .toList();
  }

  /** fluxdrm's own view: {@code sched.resource-status} through the broker. */
  Map<String, ResourceSet> schedStatus() throws IOException {
    String py =
        "import flux, json\n"
            + "print(json.dumps(flux.Flux().rpc('sched.resource-status', {}).get()))\n";
    JsonNode n = JSON.readTree(peer.ok("python", "-c", py));
    Map<String, ResourceSet> m = new TreeMap<>();
    for (String k : List.of("all", "allocated", "down")) {
      m.put(k, ResourceSet.fromJson(n.get(k)));
    }
    return m;
  }

  /**
   * flux's view agrees with fluxdrm's: what flux's job manager holds as allocated ({@code flux
   * resource R -s allocated}, from {@code job-manager.resource-status}), the union of the running
   * jobs' R, and what fluxdrm calls allocated ({@code sched.resource-status}) are the same set, and
   * both count the same pool. A job's end reaches the job manager and the scheduler by two paths
   * (its {@code clean} event, the {@code sched.free} that the job manager sends without response),
   * so this waits up to a minute for them to agree before it fails.
   */
  void assertViewsAgree() throws IOException {
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
    while (true) {
      String why = disagreement();
      if (why == null) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("flux's view and fluxdrm's disagree: " + why);
      }
      try {
        Thread.sleep(200); // polling with a deadline
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
  }

  private String disagreement() throws IOException {
    ResourceSet held = ResourceSet.empty();
    for (String id : jobs("run,cleanup")) {
      // the KVS R, not job-info's: job-info caches a running job's R and applies only expiration
      // updates to it, so it does not see a realloc grant (docs/operations.md, RFC 51 inside
      // flux-core)
      held = held.union(kvsR(id));
    }
    Map<String, ResourceSet> s = schedStatus();
    ResourceSet flux = ResourceSet.parse(peer.ok("resource", "R", "-s", "allocated"));
    ResourceSet fluxAll = ResourceSet.parse(peer.ok("resource", "R"));
    ResourceSet ours = s.get("allocated");
    if (!same(ours, flux) || !same(ours, held)) {
      return "allocated: fluxdrm "
          + ours.summary()
          + ", flux resource R -s allocated "
          + flux.summary()
          + ", running jobs' R (KVS) "
          + held.summary();
    }
    if (!same(s.get("all"), fluxAll)) {
      return "all: fluxdrm " + s.get("all").summary() + ", flux " + fluxAll.summary();
    }
    return null;
  }

  /** The same resources (ranks, cores, GPUs), whatever the order of R_lite's entries. */
  static boolean same(ResourceSet a, ResourceSet b) {
    return a.diff(b).isEmpty() && b.diff(a).isEmpty();
  }

  @Override
  public void close() {
    if (sched != null) {
      sched.close();
    }
    peer.close();
  }
}
