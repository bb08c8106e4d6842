package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.fixture.FakeFluxBroker;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code fluxdrm realloc} without a real Flux: arguments, the payloads it builds, its exit statuses
 * and output, against a {@link FakeFluxBroker} on which the test plays flux-core's job manager with
 * the realloc plugin ({@code job-manager.realloc}, {@code job-manager.realloc_cancel}, {@code
 * job-manager.release}, D470) and {@code job-info.lookup}. The command runs on another thread; the
 * test answers each request it receives.
 */
@Timeout(120)
class ReallocCommandTest {
  private static final Duration T = Duration.ofSeconds(30);
  private static final long JOB = 61_203_283_968L;
  private static final String F58 = JobId.f58(JOB);

  /** The jobspec of {@code -N1 -c2}, as the brief of the plugin gives it. */
  private static final String SPEC_1x2 =
      "{\"version\":1,\"resources\":[{\"type\":\"node\",\"count\":1,\"with\":[{\"type\":\"slot\","
          + "\"count\":1,\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":2}]}]}],"
          + "\"tasks\":[{\"command\":[\"true\"],\"slot\":\"task\",\"count\":{\"per_slot\":1}}],"
          + "\"attributes\":{\"system\":{\"duration\":0}}}";

  @TempDir Path dir;

  private FakeFluxBroker broker;
  private Reactor reactor;
  private FluxHandle h;
  private final BlockingQueue<ServiceRequest> reallocs = new LinkedBlockingQueue<>();
  private final BlockingQueue<ServiceRequest> cancels = new LinkedBlockingQueue<>();
  private final BlockingQueue<ServiceRequest> releases = new LinkedBlockingQueue<>();
  private final BlockingQueue<ObjectNode> lookups = new LinkedBlockingQueue<>();
  private final Map<String, JsonNode> jobInfo = new ConcurrentHashMap<>();
  private final Map<String, String> env = new ConcurrentHashMap<>();
  private final CompletableFuture<Runnable> interruptHook = new CompletableFuture<>();
  private final AtomicInteger unregistered = new AtomicInteger();
  private Function<String, String> savedEnv;
  private ReallocClient.Interrupts savedInterrupts;

  @BeforeEach
  void start() throws Exception {
    savedEnv = ReallocRequests.env;
    savedInterrupts = ReallocClient.interrupts;
    ReallocRequests.env = env::get;
    ReallocClient.interrupts =
        r -> {
          interruptHook.complete(r);
          return unregistered::incrementAndGet;
        };
    broker = FakeFluxBroker.start(dir.resolve("broker"), FakeFluxBroker.Options.defaults());
    reactor = Reactor.start("realloc-test");
    h = FluxHandle.connect(reactor, broker.uri(), T);
  }

  @AfterEach
  void stop() throws Exception {
    ReallocRequests.env = savedEnv;
    ReallocClient.interrupts = savedInterrupts;
    h.close();
    reactor.close();
    broker.close();
  }

  /** The job manager with the realloc plugin, and job-info. */
  private void serveJobManager() throws Exception {
    h.register(
            Service.builder("job-manager")
                .on("realloc", reallocs::add)
                .on(
                    "realloc_cancel",
                    req -> {
                      cancels.add(req);
                      req.drop();
                    })
                .on("release", releases::add)
                .build())
        .get(30, TimeUnit.SECONDS);
    h.register(
            Service.builder("job-info")
                .on(
                    "lookup",
                    req -> {
                      lookups.add(req.json());
                      ObjectNode a = Json.object();
                      a.set("id", req.json().get("id"));
                      String key = req.json().path("keys").path(0).asText();
                      JsonNode v = jobInfo.get(key);
                      if (v == null) {
                        req.fail(Errno.ENOENT, "invalid job id");
                        return;
                      }
                      a.set(key, v);
                      req.respond(a);
                    })
                .build())
        .get(30, TimeUnit.SECONDS);
  }

  private CompletableFuture<CliRun> start(String... args) {
    List<String> all = new ArrayList<>(List.of("realloc"));
    all.addAll(List.of(args));
    return CompletableFuture.supplyAsync(() -> CliRun.run("", all.toArray(String[]::new)));
  }

  private CliRun run(String... args) {
    List<String> all = new ArrayList<>(List.of("realloc"));
    all.addAll(List.of(args));
    return CliRun.run("", all.toArray(String[]::new));
  }

  private static CliRun done(CompletableFuture<CliRun> f) throws Exception {
    return f.get(60, TimeUnit.SECONDS);
  }

  private ServiceRequest nextRealloc() throws InterruptedException {
    ServiceRequest r = reallocs.poll(60, TimeUnit.SECONDS);
    assertThat(r).as("a job-manager.realloc request").isNotNull();
    return r;
  }

  private static ResourceSet r(String ranks, String cores, String hosts) {
    return ResourceSet.of(
        IdSet.parse(ranks), IdSet.parse(cores), IdSet.empty(), Hostlist.parse(hosts));
  }

  private static ObjectNode answer(long allocId, int type) {
    return Json.object().put("alloc_id", allocId).put("type", type);
  }

  private static ObjectNode granted(long allocId, ResourceSet add) {
    ObjectNode a = answer(allocId, 0);
    a.set("R_delta_add", add.toJson());
    return a;
  }

  private static ObjectNode released(long allocId, ResourceSet sub) {
    ObjectNode a = answer(allocId, 0);
    a.set("R_delta_sub", sub.toJson());
    a.set("R", r("0", "0-1", "n0").append(sub).toJson());
    return a;
  }

  /** The job's R after a release: rank0 alone, as the plugin answers job-manager.release. */
  private static ObjectNode jobRAfterRelease() {
    ObjectNode a = Json.object();
    a.set("R", r("0", "0-1", "n0").toJson());
    return a;
  }

  /** The job-manager.release that follows a granted shrink, checked and answered. */
  private ServiceRequest nextRelease(CompletableFuture<CliRun> f, String ranks) throws Exception {
    ServiceRequest rel = releases.poll(60, TimeUnit.SECONDS);
    assertThat(rel).as("a job-manager.release request").isNotNull();
    assertThat(rel.json().toString())
        .isEqualTo("{\"id\":" + JOB + ",\"ranks\":\"" + ranks + "\",\"final\":false}");
    assertThat(f).as("the command waits for the release's answer").isNotDone();
    return rel;
  }

  // ---- grow ------------------------------------------------------------------------------------

  @Test
  void grow_nodesAndCores_sendsTheSpecAddOfTheBrief_printsTheGrantLine() throws Exception {
    serveJobManager();
    CompletableFuture<CliRun> f = start("grow", F58, "-N1", "-c2", "--uri", broker.uri());
    ServiceRequest req = nextRealloc();
    assertThat(req.json())
        .isEqualTo(Json.mapper().readTree("{\"id\":" + JOB + ",\"spec_add\":" + SPEC_1x2 + "}"));
    req.respond(granted(5, r("1", "0-1", "vm1")));
    CliRun run = done(f);
    assertThat(run.status()).as("%s", run).isZero();
    assertThat(run.out()).isEqualTo("alloc_id=5 granted=rank1/core[0-1] hosts=vm1\n");
    assertThat(run.err()).isEmpty();
    assertThat(unregistered.get()).as("the Ctrl-C hook is removed").isEqualTo(1);
  }

  @Test
  void grow_uriFromTheEnvironment_decimalJobId_defaultOneCore() throws Exception {
    serveJobManager();
    env.put("FLUX_URI", broker.uri());
    CompletableFuture<CliRun> f = start("grow", Long.toString(JOB), "--nodes", "2");
    ServiceRequest req = nextRealloc();
    JsonNode spec = req.json().get("spec_add");
    assertThat(req.json().get("id").asLong()).isEqualTo(JOB);
    assertThat(spec.at("/resources/0/count").asInt()).isEqualTo(2);
    assertThat(spec.at("/resources/0/with/0/with/0").toString())
        .isEqualTo("{\"type\":\"core\",\"count\":1}");
    req.respond(granted(6, r("2-3", "0", "vm[2-3]")));
    CliRun run = done(f);
    assertThat(run.status()).as("%s", run).isZero();
    assertThat(run.out()).isEqualTo("alloc_id=6 granted=rank[2-3]/core0 hosts=vm[2-3]\n");
  }

  @Test
  void grow_json_printsTheAnswerObjectInsteadOfTheLine() throws Exception {
    serveJobManager();
    CompletableFuture<CliRun> f = start("grow", F58, "-N1", "--json", "--uri", broker.uri());
    ObjectNode a = granted(7, r("3", "0-3", "vm3"));
    nextRealloc().respond(a);
    CliRun run = done(f);
    assertThat(run.status()).as("%s", run).isZero();
    assertThat(CliRun.lines(run.out())).hasSize(1);
    assertThat(CliRun.json(run.out()).toString()).isEqualTo(a.toString());
  }

  @Test
  void grow_denied_exit1_deniedNoteOnStderr() throws Exception {
    serveJobManager();
    CompletableFuture<CliRun> f = start("grow", F58, "-N5", "--uri", broker.uri());
    nextRealloc()
        .respond(answer(8, 1).put("note", "unsatisfiable request: need 5 node(s), only 3"));
    CliRun run = done(f);
    run.assertOneLineError(
        "fluxdrm realloc grow: denied: unsatisfiable request: need 5 node(s), only 3");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void grow_unsupported_exit1_saysTheSchedulerHasNoRealloc() throws Exception {
    serveJobManager();
    CompletableFuture<CliRun> f = start("grow", F58, "-N1", "--uri", broker.uri());
    nextRealloc().respond(answer(0, 3));
    CliRun run = done(f);
    run.assertOneLineError("the loaded scheduler does not support RFC 51 realloc");
  }

  @Test
  void grow_canceledByTheJobManager_exit1() throws Exception {
    serveJobManager();
    CompletableFuture<CliRun> f = start("grow", F58, "-N1", "--uri", broker.uri());
    nextRealloc().respond(answer(9, 2));
    CliRun run = done(f);
    run.assertOneLineError("canceled by the job manager");
    assertThat(cancels).as("no cancel of ours").isEmpty();
  }

  @Test
  void grow_rpcError_exit1_itsTextAlone() throws Exception {
    serveJobManager();
    CompletableFuture<CliRun> f = start("grow", F58, "-N1", "--uri", broker.uri());
    nextRealloc().fail(Errno.EPERM, "realloc: user 65534 may not act on job " + F58 + " of user 0");
    CliRun run = done(f);
    run.assertOneLineError(
        "fluxdrm realloc grow: realloc: user 65534 may not act on job " + F58 + " of user 0");
  }

  @Test
  void grow_noPluginLoaded_ENOSYS_saysToLoadIt() {
    // no job-manager service at all: the broker answers ENOSYS
    CliRun run = run("grow", F58, "-N1", "--uri", broker.uri());
    run.assertOneLineError("(expected: the realloc jobtap plugin loaded: flux jobtap load");
  }

  @Test
  void grow_noInstanceAtTheUri_exit1() {
    CliRun run = run("grow", F58, "-N1", "--uri", "local://" + dir.resolve("nothing-here"));
    run.assertOneLineError(
        "fluxdrm realloc grow: --uri: local://"
            + dir.resolve("nothing-here")
            + ": no such socket (expected: a running Flux instance there, and access to it)");
  }

  @Test
  void grow_timeout_sendsTheCancelWithTheRequestsMatchtag_waitsForCancel_exit1() throws Exception {
    serveJobManager();
    CompletableFuture<CliRun> f =
        start("grow", F58, "-N3", "--timeout", "50ms", "--uri", broker.uri());
    ServiceRequest req = nextRealloc();
    ServiceRequest cancel = cancels.poll(60, TimeUnit.SECONDS);
    assertThat(cancel).as("job-manager.realloc_cancel").isNotNull();
    assertThat(cancel.json().toString()).isEqualTo("{\"matchtag\":" + req.matchtag() + "}");
    assertThat(cancel.sender()).as("the same connection").isEqualTo(req.sender());
    assertThat(cancel.expectsResponse()).isFalse();
    assertThat(f).as("the command waits for the CANCEL answer").isNotDone();
    req.respond(answer(10, 2));
    CliRun run = done(f);
    run.assertOneLineError(
        "fluxdrm realloc grow: canceled after the timeout of 50ms: the request was still waiting");
  }

  @Test
  void grow_answerAfterTheTimeoutButBeforeTheCancel_isTheGrant_exit0() throws Exception {
    serveJobManager();
    CompletableFuture<CliRun> f =
        start("grow", F58, "-N1", "--timeout", "1ms", "--uri", broker.uri());
    ServiceRequest req = nextRealloc();
    assertThat(cancels.poll(60, TimeUnit.SECONDS)).isNotNull();
    req.respond(granted(11, r("1", "0", "vm1")));
    CliRun run = done(f);
    assertThat(run.status()).as("%s", run).isZero();
    assertThat(run.out()).isEqualTo("alloc_id=11 granted=rank1/core0 hosts=vm1\n");
    assertThat(run.err()).contains("the answer came after the timeout, before the cancel");
  }

  @Test
  void grow_interrupted_cancels_waitsForCancel_exit130() throws Exception {
    serveJobManager();
    CompletableFuture<CliRun> f = start("grow", F58, "-N3", "--uri", broker.uri());
    ServiceRequest req = nextRealloc();
    Runnable hook = interruptHook.get(60, TimeUnit.SECONDS);
    // the hook holds the JVM's exit until the command has reported: run it as the JVM would
    CompletableFuture<Void> hookDone = CompletableFuture.runAsync(hook);
    ServiceRequest cancel = cancels.poll(60, TimeUnit.SECONDS);
    assertThat(cancel).isNotNull();
    assertThat(cancel.json().get("matchtag").asInt()).isEqualTo(req.matchtag());
    assertThat(hookDone).as("the hook waits for the report").isNotDone();
    req.respond(answer(12, 2));
    CliRun run = done(f);
    hookDone.get(60, TimeUnit.SECONDS);
    assertThat(run.status()).as("%s", run).isEqualTo(130);
    run.assertOneLineError("interrupted: the request was canceled while it waited", 130);
  }

  @Test
  void grow_spec_yamlFile_isSentAsItIs() throws Exception {
    serveJobManager();
    Path spec = dir.resolve("spec.yaml");
    Files.writeString(
        spec,
        String.join(
            "\n",
            "version: 1",
            "resources:",
            "  - type: node",
            "    count: 2",
            "    with:",
            "      - type: slot",
            "        count: 1",
            "        label: task",
            "        with:",
            "          - type: core",
            "            count: 3",
            "tasks:",
            "  - command: [\"app\"]",
            "    slot: task",
            "    count:",
            "      per_slot: 1",
            "attributes:",
            "  system:",
            "    duration: 60",
            ""));
    CompletableFuture<CliRun> f =
        start("grow", F58, "--spec", spec.toString(), "--uri", broker.uri());
    ServiceRequest req = nextRealloc();
    assertThat(req.json().at("/spec_add/resources/0/count").asInt()).isEqualTo(2);
    assertThat(req.json().at("/spec_add/resources/0/with/0/with/0/count").asInt()).isEqualTo(3);
    assertThat(req.json().at("/spec_add/tasks/0/command/0").asText()).isEqualTo("app");
    assertThat(req.json().at("/spec_add/attributes/system/duration").asInt()).isEqualTo(60);
    req.respond(granted(13, r("1-2", "0-2", "vm[1-2]")));
    assertThat(done(f).status()).isZero();
  }

  @Test
  void grow_spec_notAJobspecV1_exit1_namesTheViolation_sendsNothing() throws Exception {
    serveJobManager();
    Path spec = dir.resolve("bad.json");
    Files.writeString(spec, "{\"version\": 1, \"resources\": []}");
    CliRun run = run("grow", F58, "--spec", spec.toString(), "--uri", broker.uri());
    run.assertOneLineError("--spec: " + spec);
    assertThat(run.err()).contains("(expected: a jobspec V1");
    assertThat(reallocs).isEmpty();
  }

  /** A {@code flux} on PATH that records its arguments and FLUX_URI, then acts as told. */
  private Path fakeFlux(String body) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path flux = bin.resolve("flux");
    Files.writeString(
        flux,
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > "
            + dir.resolve("args")
            + "\nprintf '%s\\n' \"$FLUX_URI\" > "
            + dir.resolve("uri")
            + "\n"
            + body
            + "\n");
    Files.setPosixFilePermissions(flux, PosixFilePermissions.fromString("rwxr-xr-x"));
    env.put("PATH", dir.resolve("nothing") + ":" + bin);
    return flux;
  }

  @Test
  void grow_withCommand_submitsTheCompanionOnTheGrant_printsItsId() throws Exception {
    serveJobManager();
    fakeFlux("echo '\u0192Comp4n1on'");
    CompletableFuture<CliRun> f =
        start("grow", F58, "-N2", "--uri", broker.uri(), "--", "hostname", "-s");
    nextRealloc().respond(granted(14, r("1-2", "0-1", "vm[1-2]")));
    CliRun run = done(f);
    assertThat(run.status()).as("%s", run).isZero();
    assertThat(run.out())
        .isEqualTo(
            "alloc_id=14 granted=rank[1-2]/core[0-1] hosts=vm[1-2]\ncompanion=\u0192Comp4n1on\n");
    assertThat(Files.readAllLines(dir.resolve("args"), StandardCharsets.UTF_8))
        .containsExactly(
            "submit",
            "-N",
            "2",
            "--setattr=system.realloc.job=" + JOB,
            "--setattr=system.realloc.alloc_id=14",
            "hostname",
            "-s");
    assertThat(Files.readString(dir.resolve("uri")).strip()).isEqualTo(broker.uri());
  }

  @Test
  void grow_withCommand_json_companionOnASecondLine() throws Exception {
    serveJobManager();
    fakeFlux("echo f2");
    CompletableFuture<CliRun> f =
        start("grow", F58, "-N1", "--json", "--uri", broker.uri(), "--", "true");
    nextRealloc().respond(granted(15, r("1", "0", "vm1")));
    CliRun run = done(f);
    assertThat(run.status()).as("%s", run).isZero();
    List<String> lines = CliRun.lines(run.out());
    assertThat(lines).hasSize(2);
    assertThat(CliRun.json(lines.get(0)).get("alloc_id").asInt()).isEqualTo(15);
    assertThat(lines.get(1)).isEqualTo("{\"companion\":\"f2\"}");
  }

  @Test
  void grow_companionRefused_exit1_saysTheGrantStays() throws Exception {
    serveJobManager();
    fakeFlux("echo 'flux-submit: ERROR: system.realloc: job f2 holds no grant' >&2; exit 1");
    CompletableFuture<CliRun> f =
        start("grow", F58, "-N1", "--uri", broker.uri(), "--", "hostname");
    nextRealloc().respond(granted(16, r("1", "0", "vm1")));
    CliRun run = done(f);
    assertThat(run.out()).isEqualTo("alloc_id=16 granted=rank1/core0 hosts=vm1\n");
    run.assertOneLineError(
        "companion: flux submit exited 1: flux-submit: ERROR: system.realloc: job f2 holds no"
            + " grant (the grant alloc_id=16 stays with the job; 'fluxdrm realloc release "
            + F58
            + " --alloc-id 16' gives it back)");
  }

  @Test
  void grow_withCommand_noFluxOnPath_exit1_beforeAnyRequest() throws Exception {
    serveJobManager();
    env.put("PATH", dir.resolve("empty").toString());
    CliRun run = run("grow", F58, "-N1", "--uri", broker.uri(), "--", "hostname");
    run.assertOneLineError("COMMAND: no 'flux' on PATH");
    assertThat(reallocs).isEmpty();
  }

  // ---- release ---------------------------------------------------------------------------------

  /** rank0 (the job's own) with 2 cores on n0, ranks 1-2 (grown) with 4 cores on n[1-2]. */
  private void jobR() {
    ResourceSet jr = r("0", "0-1", "n0").append(r("1-2", "0-3", "n[1-2]"));
    jobInfo.put("R", Json.mapper().getNodeFactory().textNode(jr.toString()));
  }

  @Test
  void release_ranks_looksUpTheJobsR_sendsSpecSubAndR_printsTheReleased() throws Exception {
    serveJobManager();
    jobR();
    CompletableFuture<CliRun> f = start("release", F58, "--ranks", "1-2", "--uri", broker.uri());
    ServiceRequest req = nextRealloc();
    assertThat(lookups.poll())
        .isEqualTo(Json.mapper().readTree("{\"id\":" + JOB + ",\"keys\":[\"R\"],\"flags\":0}"));
    ResourceSet want = r("1-2", "0-3", "n[1-2]");
    assertThat(req.json().get("id").asLong()).isEqualTo(JOB);
    assertThat(req.json().get("spec_sub").toString())
        .isEqualTo(ReallocRequests.nodeSpec(2, 4, 0).toString());
    assertThat(ResourceSet.fromJson(req.json().get("R"))).isEqualTo(want);
    assertThat(req.json().has("spec_add")).isFalse();
    req.respond(released(20, want));
    nextRelease(f, "1-2").respond(jobRAfterRelease());
    CliRun run = done(f);
    assertThat(run.status()).as("%s", run).isZero();
    assertThat(run.out()).isEqualTo("alloc_id=20 released=rank[1-2]/core[0-3] hosts=n[1-2]\n");
  }

  @Test
  void release_hosts_areTheirRanksInTheJobsR() throws Exception {
    serveJobManager();
    jobR();
    CompletableFuture<CliRun> f = start("release", F58, "--hosts", "n2", "--uri", broker.uri());
    ServiceRequest req = nextRealloc();
    assertThat(ResourceSet.fromJson(req.json().get("R"))).isEqualTo(r("2", "0-3", "n2"));
    assertThat(req.json().at("/spec_sub/resources/0/count").asInt()).isEqualTo(1);
    req.respond(released(21, r("2", "0-3", "n2")));
    nextRelease(f, "2").respond(jobRAfterRelease());
    assertThat(done(f).out()).isEqualTo("alloc_id=21 released=rank2/core[0-3] hosts=n2\n");
  }

  @Test
  void release_ranksTheJobLacks_exit1_sendsNothing() throws Exception {
    serveJobManager();
    jobR();
    CliRun run = run("release", F58, "--ranks", "2-4", "--uri", broker.uri());
    run.assertOneLineError(
        "--ranks: 3-4 not in the R of job "
            + F58
            + " (it has rank0/core[0-1] rank[1-2]/core[0-3])");
    assertThat(reallocs).isEmpty();
  }

  @Test
  void release_unknownJob_exit1_theLookupsError() throws Exception {
    serveJobManager();
    CliRun run = run("release", F58, "--ranks", "1", "--uri", broker.uri());
    run.assertOneLineError("job-info.lookup of " + F58 + " R: invalid job id");
  }

  private void eventlog(String... lines) {
    jobInfo.put(
        "eventlog", Json.mapper().getNodeFactory().textNode(String.join("\n", lines) + "\n"));
  }

  private static String grow(int allocId, ResourceSet add) {
    ObjectNode e = Json.object().put("timestamp", 1.5).put("name", "realloc-grow");
    e.putObject("context").put("alloc_id", allocId).set("R_delta_add", add.toJson());
    return e.toString();
  }

  private static String release(int allocId, ResourceSet sub) {
    ObjectNode e = Json.object().put("timestamp", 2.5).put("name", "realloc-release");
    e.putObject("context").put("alloc_id", allocId).set("R_delta_sub", sub.toJson());
    return e.toString();
  }

  @Test
  void release_allocId_isTheGrantOfItsReallocGrowEvent() throws Exception {
    serveJobManager();
    eventlog(
        "{\"timestamp\":1.0,\"name\":\"start\"}",
        grow(3, r("1", "0-3", "n1")),
        grow(4, r("2-3", "0-1", "n[2-3]")));
    CompletableFuture<CliRun> f = start("release", F58, "--alloc-id", "4", "--uri", broker.uri());
    ServiceRequest req = nextRealloc();
    assertThat(lookups.poll().get("keys").toString()).isEqualTo("[\"eventlog\"]");
    assertThat(ResourceSet.fromJson(req.json().get("R"))).isEqualTo(r("2-3", "0-1", "n[2-3]"));
    assertThat(req.json().get("spec_sub").toString())
        .isEqualTo(ReallocRequests.nodeSpec(2, 2, 0).toString());
    req.respond(released(22, r("2-3", "0-1", "n[2-3]")));
    nextRelease(f, "2-3").respond(jobRAfterRelease());
    assertThat(done(f).out()).isEqualTo("alloc_id=22 released=rank[2-3]/core[0-1] hosts=n[2-3]\n");
  }

  @Test
  void release_allocId_releasedAlready_orNone_exit1() throws Exception {
    serveJobManager();
    eventlog(grow(3, r("1", "0-3", "n1")), release(5, r("1", "0-3", "n1")));
    CliRun again = run("release", F58, "--alloc-id", "3", "--uri", broker.uri());
    again.assertOneLineError(
        "--alloc-id: 3: job "
            + F58
            + " released rank1/core[0-3] already (realloc-release alloc_id 5)");
    CliRun none = run("release", F58, "--alloc-id", "9", "--uri", broker.uri());
    none.assertOneLineError(
        "--alloc-id: job " + F58 + " has no realloc-grow event with alloc_id 9");
    assertThat(reallocs).isEmpty();
  }

  @Test
  void release_rFile_isSentWithoutALookup() throws Exception {
    serveJobManager();
    Path file = dir.resolve("R.json");
    ResourceSet give = r("5", "0-7", "big5");
    Files.writeString(file, give.toString());
    CompletableFuture<CliRun> f =
        start("release", F58, "--R", file.toString(), "--json", "--uri", broker.uri());
    ServiceRequest req = nextRealloc();
    assertThat(ResourceSet.fromJson(req.json().get("R"))).isEqualTo(give);
    assertThat(req.json().get("spec_sub").toString())
        .isEqualTo(ReallocRequests.nodeSpec(1, 8, 0).toString());
    ObjectNode a = released(23, give);
    req.respond(a);
    nextRelease(f, "5").respond(jobRAfterRelease());
    CliRun run = done(f);
    assertThat(run.status()).as("%s", run).isZero();
    List<String> lines = CliRun.lines(run.out());
    assertThat(lines).as("the shrink's answer, then the release's").hasSize(2);
    assertThat(CliRun.json(lines.get(0)).toString()).isEqualTo(a.toString());
    assertThat(CliRun.json(lines.get(1)).toString()).isEqualTo(jobRAfterRelease().toString());
    assertThat(lookups).isEmpty();
  }

  @Test
  void release_refusedAfterTheShrink_exit1_saysTheRanksStayTheJobs() throws Exception {
    serveJobManager();
    jobR();
    CompletableFuture<CliRun> f = start("release", F58, "--ranks", "2", "--uri", broker.uri());
    nextRealloc().respond(released(24, r("2", "0-3", "n2")));
    nextRelease(f, "2")
        .fail(Errno.EINVAL, "release: job " + F58 + ": rank 2 is not in a granted shrink");
    CliRun run = done(f);
    run.assertOneLineError(
        "fluxdrm realloc release: release: job "
            + F58
            + ": rank 2 is not in a granted shrink (the shrink alloc_id=24 of rank2/core[0-3] was"
            + " granted; those ranks stay the job's until released)");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void release_interruptedWhileReleasing_goesOnToTheEnd_exit130() throws Exception {
    serveJobManager();
    jobR();
    CompletableFuture<CliRun> f = start("release", F58, "--ranks", "1", "--uri", broker.uri());
    nextRealloc().respond(released(25, r("1", "0-3", "n1")));
    ServiceRequest rel = nextRelease(f, "1");
    // Ctrl-C while the release waits: the hook records it, then holds until the command reported;
    // the answer goes out only once the hook is holding (a state polled with a deadline), so the
    // interrupt is seen before the answer whatever the machine's load
    Thread hook = new Thread(interruptHook.get(60, TimeUnit.SECONDS), "test-interrupt");
    hook.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (hook.getState() != Thread.State.TIMED_WAITING) {
      assertThat(System.nanoTime() - deadline).as("the hook holds within 60 s").isNegative();
      Thread.onSpinWait();
    }
    rel.respond(jobRAfterRelease());
    CliRun run = done(f);
    hook.join(TimeUnit.SECONDS.toMillis(60));
    assertThat(hook.isAlive()).as("the hook ends once the command reported").isFalse();
    assertThat(cancels).as("a release has no cancel").isEmpty();
    assertThat(run.out()).isEqualTo("alloc_id=25 released=rank1/core[0-3] hosts=n1\n");
    run.assertOneLineError("interrupted after the answer; the command went on to its end", 130);
  }

  // ---- payloads and arguments ------------------------------------------------------------------

  @Test
  void nodeSpec_isTheJobspecOfTheBrief_andAValidJobspecV1() {
    ObjectNode spec = ReallocRequests.nodeSpec(1, 2, 0);
    assertThat(spec.toString()).isEqualTo(SPEC_1x2);
    assertThat(io.fluxdrm.jobspec.JobspecValidator.validate(spec, io.fluxdrm.jobspec.Level.V1))
        .isEmpty();
    assertThat(
            io.fluxdrm.jobspec.JobspecValidator.validate(
                ReallocRequests.nodeSpec(3, 4, 1), io.fluxdrm.jobspec.Level.V1))
        .isEmpty();
  }

  @Test
  void specSub_nodesAreTheRanks_coresTheFewestOnARank_gpusWhenEveryRankHasSome() {
    ResourceSet uneven = r("1", "0-3", "a1").append(r("2", "0-1", "a2"));
    assertThat(ReallocRequests.specSub(uneven)).isEqualTo(ReallocRequests.nodeSpec(2, 2, 0));
    ResourceSet fewerFirst = r("1", "0", "a1").append(r("2-3", "0-5", "a[2-3]"));
    assertThat(ReallocRequests.specSub(fewerFirst)).isEqualTo(ReallocRequests.nodeSpec(3, 1, 0));
    ResourceSet gpus =
        ResourceSet.of(IdSet.of(4), IdSet.range(0, 5), IdSet.range(0, 1), Hostlist.parse("g4"));
    JsonNode s = ReallocRequests.specSub(gpus);
    assertThat(s.at("/resources/0/with/0/with").toString())
        .isEqualTo("[{\"type\":\"core\",\"count\":6},{\"type\":\"gpu\",\"count\":2}]");
    assertThatThrownBy(() -> ReallocRequests.specSub(ResourceSet.empty()))
        .isInstanceOf(CliError.class)
        .hasMessageContaining("empty");
  }

  @ParameterizedTest
  @CsvSource({
    "\u01922cFKq2w, 61203283968",
    "f2cFKq2w, 61203283968",
    "\ufffd\ufffd2cFKq2w, 61203283968",
    "fABC, 30867",
    "61203283968, 61203283968",
    "0xe40000000, 61203283968",
    "0000.000e.4000.0000, 61203283968",
    "job.0000.000e.4000.0000, 61203283968",
    "\u0192jpXCZedGfVQ, -1",
    "18446744073709551615, -1",
  })
  void jobId_everyRfc19Form(String text, long id) {
    assertThat(ReallocRequests.jobId(text)).isEqualTo(id);
    assertThat(JobId.f58(JOB)).isEqualTo("\u01922cFKq2w");
  }

  @ParameterizedTest
  @CsvSource({"f0OIl", "\u0192", "abc", "18446744073709551616", "\u0192jpXCZedGfVR", "0x", "-1"})
  void jobId_anythingElse_isAUsageError(String text) {
    assertThatThrownBy(() -> ReallocRequests.jobId(text))
        .isInstanceOfSatisfying(CliError.class, e -> assertThat(e.status()).isEqualTo(2))
        .hasMessageContaining("JOBID: \"" + text + "\"");
  }

  @ParameterizedTest
  @CsvSource({"30, PT30S", "30s, PT30S", "1.5m, PT1M30S", "500ms, PT0.5S", "2h, PT2H", "1d, PT24H"})
  void duration_fsd(String text, String iso) {
    assertThat(ReallocRequests.duration(text)).isEqualTo(Duration.parse(iso));
  }

  @Test
  void duration_infIsNoLimit() {
    assertThat(ReallocRequests.duration("inf")).isNull();
    assertThat(ReallocRequests.duration("infinity")).isNull();
  }

  /** Usage errors: exit 2, one line on stderr naming the problem, nothing sent. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''| missing subcommand (expected: grow or release)",
        "grow| Missing required parameter: 'JOBID'",
        "grow fABC| missing -N/--nodes or --spec",
        "grow fABC -N1 --spec x.yaml| -N/--nodes and --spec: both given",
        "grow fABC -N0| -N/--nodes: 0 (expected: at least 1)",
        "grow fABC -N1 -c0| -c/--cores-per-node: 0 (expected: at least 1)",
        "grow fABC -N x| Invalid value for option '--nodes'",
        "grow fABC --spec x.yaml -c2| -c/--cores-per-node: only with -N/--nodes",
        "grow nope -N1| JOBID: \"nope\"",
        "grow fABC -N1 --timeout 0| --timeout: \"0\"",
        "grow fABC -N1 --timeout 5x| --timeout: \"5x\"",
        "grow fABC -N1 --uri /tmp/x| --uri: \"/tmp/x\" (expected: local://PATH",
        "grow fABC -N1 --frobnicate| Unknown option: '--frobnicate'",
        "release fABC| Missing required argument (specify one of these)",
        "release fABC --ranks 1 --hosts n1| mutually exclusive",
        "release fABC --ranks 1-| --ranks: ",
        "release fABC --ranks ,| --ranks: \",\" is empty",
        "release fABC --hosts n[1-| --hosts: ",
        "release fABC --alloc-id x| --alloc-id: \"x\" (expected: a decimal alloc_id",
      })
  void usageErrors_exit2(String line, String message) throws Exception {
    serveJobManager();
    List<String> args = new ArrayList<>(List.of(CliRun.words(line)));
    if (args.size() > 1 && !line.contains("--uri")) {
      args.add("--uri");
      args.add(broker.uri());
    }
    CliRun run = run(args.toArray(String[]::new));
    run.assertOneLineError(message, 2);
    assertThat(run.err()).startsWith("fluxdrm realloc");
    assertThat(reallocs).isEmpty();
  }

  @Test
  void noFluxUriAndNoUriOption_isAUsageError() {
    CliRun run = run("grow", F58, "-N1");
    run.assertOneLineError(
        "fluxdrm realloc grow: no Flux instance: FLUX_URI is not set and --uri is not given", 2);
  }

  @Test
  void fluxUriOfAnotherConnector_exit1() {
    env.put("FLUX_URI", "ssh://host/tmp/x");
    CliRun run = run("release", F58, "--ranks", "1");
    run.assertOneLineError("FLUX_URI: \"ssh://host/tmp/x\" (expected: local://PATH");
  }

  @Test
  void successLine_withoutHostNames_leavesHostsOut() {
    ResourceSet noHosts = ResourceSet.of(IdSet.of(1), IdSet.of(0), IdSet.empty(), null);
    ObjectNode a = granted(30, noHosts);
    assertThat(ReallocRequests.successLine(io.fluxdrm.protocol.ReallocAnswer.fromJson(a)))
        .isEqualTo("alloc_id=30 granted=rank1/core0");
  }
}
