package io.fluxdrm.showcase.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.jobmanager.JmFixture;
import io.fluxdrm.jobmanager.JobEvent;
import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.ShellPlugin;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The whole RFC 51 chain on one in-memory hub: per job an application-facing {@link PmixAllocator}
 * over the job's {@link ShellPlugin}, the {@link JobManager} and the real sched-simple of a {@link
 * JmFixture}. Records the job manager's endpoint and each shell plugin's endpoint as transcripts,
 * and checks after a scenario that the scheduler's pool is conserved and that every job's eventlog
 * reads as D8's RFC 21 sequence with R = initial R ∪ grants − releases.
 */
final class ChainFixture {
  final JmFixture f;
  final StringWriter jmTranscript = new StringWriter();
  private final TranscriptRecorder jmRecorder;
  final List<Job> jobs = new ArrayList<>();

  /** One job's side of the chain: its shell plugin, the facade and the shell's handle. */
  static final class Job {
    final long id;
    final int uid;
    final ShellPlugin plugin;
    final PmixAllocator pmix;
    final FluxHandle handle;
    final StringWriter transcript = new StringWriter();
    final TranscriptRecorder recorder;

    Job(long id, int uid, ShellPlugin plugin, PmixAllocator pmix, FluxHandle h, Clock clock) {
      this.id = id;
      this.uid = uid;
      this.plugin = plugin;
      this.pmix = pmix;
      this.handle = h;
      this.recorder = new TranscriptRecorder(transcript, clock);
    }

    String transcript() {
      recorder.flush();
      return transcript.toString();
    }
  }

  ChainFixture(JmFixture f) {
    this.f = f;
    this.jmRecorder = new TranscriptRecorder(jmTranscript, clock());
    f.jm.tap(jmRecorder);
  }

  /** The standard world: four nodes of four cores, the default scheduler. */
  static ChainFixture standard(java.nio.file.Path dir) {
    return new ChainFixture(JmFixture.started(dir, 4, 4));
  }

  /**
   * The replay providers' world: job 1 of ALICE on node0 and job 2 of BOB on node1 registered with
   * the job manager before the scheduler (options {@code o}) starts over four nodes of four cores;
   * no shell started yet.
   */
  static ChainFixture registered(java.nio.file.Path dir, io.fluxdrm.sched.SchedulerOptions o) {
    JmFixture f = new JmFixture(dir).startJobManager();
    register(f);
    return new ChainFixture(f.startScheduler(JmFixture.pool(4, 4), o));
  }

  /** Registers job 1 of ALICE on node0 and job 2 of BOB on node1. */
  static void register(JmFixture f) {
    ResourceSet pool = JmFixture.pool(4, 4);
    CompletableFuture<Long> ra = f.jm.register(1, JmFixture.ALICE, pool.copyRanks(IdSet.of(0)));
    CompletableFuture<Long> rb = f.jm.register(2, JmFixture.BOB, pool.copyRanks(IdSet.of(1)));
    f.settle();
    assertThat(ra).isCompleted();
    assertThat(rb).isCompleted();
  }

  /** A clock that follows the fixture's manual loop, for transcripts. */
  Clock clock() {
    return f.loop.clock(Instant.parse("2026-11-29T00:00:00Z"));
  }

  /** Submits a job of {@code n} whole nodes for {@code uid} and starts its shell and facade. */
  Job submit(int n, int uid) {
    return shell(f.submitNodes(n, uid), uid);
  }

  /** Starts the shell plugin and the facade of job {@code id} run by {@code uid}. */
  Job shell(long id, int uid) {
    ShellPlugin p = ShellPlugin.create(id, uid, f.jm.jobR(id).orElseThrow());
    FluxHandle h = f.hub.attach(Credentials.user(uid));
    PmixAllocator pmix = PmixAllocator.create(p);
    Job j = new Job(id, uid, p, pmix, h, clock());
    CompletableFuture<Void> up = p.start(h);
    CompletableFuture<Void> up2 = pmix.start(h);
    f.settle();
    assertThat(up).isCompleted();
    assertThat(up2).isCompleted();
    p.tap(j.recorder);
    jobs.add(j);
    return j;
  }

  /** An application of {@code j}'s user, a client of the facade's RPC service. */
  FluxHandle app(Job j) {
    return f.hub.attach(Credentials.user(j.uid));
  }

  /**
   * {@code <uid>-pmix-<f58>.allocation-request} from {@code app} to job {@code j}'s facade, then
   * the loop runs; the answer decoded.
   */
  CompletableFuture<PmixAnswer> rpc(FluxHandle app, Job j, AllocDirective d, Info... infos) {
    ObjectNode p = Json.object().put("directive", d.code());
    p.set("info", InfoCodec.encode(Arrays.asList(infos)));
    CompletableFuture<PmixAnswer> a =
        app.rpc(j.pmix.serviceName() + "." + PmixAllocator.METHOD, p)
            .thenApply(m -> decode(m.json()));
    f.settle();
    return a;
  }

  static PmixAnswer decode(ObjectNode o) {
    return new PmixAnswer(
        PmixStatus.byCode(o.get("status").asInt()).orElseThrow(),
        InfoCodec.decode(o.get("info")),
        o.path("message").asText(""));
  }

  /** {@code PMIx_Allocation_request} from job {@code j}'s application, then the loop runs. */
  CompletableFuture<PmixAnswer> ask(Job j, AllocDirective d, Info... infos) {
    CompletableFuture<PmixAnswer> a = j.pmix.allocationRequest(d, Arrays.asList(infos));
    f.settle();
    return a;
  }

  static Info nodes(long n) {
    return Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, n);
  }

  static Info reqId(String id) {
    return Info.of(PmixKey.PMIX_ALLOC_REQ_ID, id);
  }

  static Info allocId(String id) {
    return Info.of(PmixKey.PMIX_ALLOC_ID, id);
  }

  static Info nodeList(String list) {
    return Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, list);
  }

  static PmixAnswer done(CompletableFuture<PmixAnswer> a) {
    assertThat(a).as("answered").isCompleted();
    return a.join();
  }

  /** The value of {@code key} in an answer's infos. */
  static String info(PmixAnswer a, String key) {
    return a.infos().stream()
        .filter(i -> i.key().equals(key))
        .map(i -> String.valueOf(i.value()))
        .findFirst()
        .orElseThrow(() -> new AssertionError(key + " not in " + a.infos()));
  }

  /** The value of {@code key} in an answer's infos, or null. */
  static String optional(PmixAnswer a, String key) {
    return a.infos().stream()
        .filter(i -> i.key().equals(key))
        .map(i -> String.valueOf(i.value()))
        .findFirst()
        .orElse(null);
  }

  /** The tasks of {@code j} on {@code ranks} have exited; the loop runs. */
  CompletableFuture<ResourceSet> tasksExited(Job j, IdSet ranks) {
    CompletableFuture<ResourceSet> r = j.plugin.tasksExited(ranks);
    f.settle();
    return r;
  }

  /**
   * The job manager crashes (its handle goes away), stays down for {@code down}, and a new one
   * recovers from the eventlogs.
   */
  void restartJobManager(java.time.Duration down) {
    f.jmHandle.close();
    f.settle();
    f.advance(down);
    f.startJobManager();
    f.jm.tap(jmRecorder);
  }

  String jmTranscript() {
    jmRecorder.flush();
    return jmTranscript.toString();
  }

  /**
   * Conservation and D8 for every job: the pool's invariants hold; job manager, scheduler and shell
   * agree on each running job's R; each eventlog reads as D8's RFC 21 sequence and its replay gives
   * the job manager's R and resources being released.
   */
  void check() {
    if (f.sched != null) {
      f.sched.core().pool().checkInvariants();
    }
    for (Job j : jobs) {
      checkEventlog(j.id);
      if (f.jm.jobR(j.id).isPresent()) {
        if (f.sched != null) {
          f.checkAgree(j.id);
        }
        assertThat(JmFixture.sameResources(j.plugin.r(), f.jm.jobR(j.id).orElseThrow()))
            .as("job %d: shell %s, job manager %s", j.id, j.plugin.r(), f.jm.jobR(j.id))
            .isTrue();
      }
    }
  }

  /**
   * The eventlog of {@code id} reads as D8: {@code submit}, {@code alloc {R}}, then {@code
   * resource-update} with exactly one of R_delta_add (new resources) or R_delta_sub (held, not
   * being released), {@code release {ranks, final}} (final:false only for ranks being released;
   * final:true for everything held, followed by {@code free} last), and R replayed from it equals
   * the job manager's.
   */
  void checkEventlog(long id) {
    List<JobEvent> ev = f.events(id);
    assertThat(ev.size()).as("job %d eventlog", id).isGreaterThanOrEqualTo(2);
    assertThat(ev.get(0).name()).isEqualTo("submit");
    assertThat(ev.get(1).name()).isEqualTo("alloc");
    ResourceSet r = ResourceSet.fromJson(ev.get(1).context().get("R"));
    ResourceSet releasing = ResourceSet.empty();
    boolean freed = false;
    double last = 0;
    for (int i = 2; i < ev.size(); i++) {
      JobEvent e = ev.get(i);
      String at = "job " + id + " event " + i + " " + e.name() + " " + e.context();
      assertThat(freed).as(at + ": after free").isFalse();
      assertThat(e.timestamp()).as(at).isGreaterThanOrEqualTo(last);
      last = e.timestamp();
      switch (e.name()) {
        case "resource-update" -> {
          JsonNode add = e.context().get("R_delta_add");
          JsonNode sub = e.context().get("R_delta_sub");
          assertThat(add == null ^ sub == null).as(at + ": exactly one delta").isTrue();
          if (add != null) {
            ResourceSet a = ResourceSet.fromJson(add);
            assertThat(a.intersect(r).isEmpty()).as(at + ": new resources").isTrue();
            r = r.union(a);
          } else {
            ResourceSet s = ResourceSet.fromJson(sub);
            assertThat(s.diff(r.diff(releasing)).isEmpty()).as(at + ": held").isTrue();
            releasing = releasing.union(s);
          }
        }
        case "release" -> {
          IdSet ranks = IdSet.parse(e.context().get("ranks").asText());
          boolean fin = e.context().get("final").asBoolean();
          if (fin) {
            assertThat(ranks).as(at).isEqualTo(r.ranks());
            assertThat(ev.get(ev.size() - 1).name()).as(at + ": free last").isEqualTo("free");
            assertThat(i).as(at + ": free right after").isEqualTo(ev.size() - 2);
          } else {
            assertThat(ranks.isSubsetOf(releasing.ranks())).as(at + ": being released").isTrue();
            ResourceSet gone = releasing.copyRanks(ranks);
            r = r.diff(gone);
            releasing = releasing.diff(gone);
          }
        }
        case "free" -> freed = true;
        case "exception" -> {}
        default -> throw new AssertionError(at + ": not an RFC 21 event of D8");
      }
    }
    if (!freed) {
      assertThat(JmFixture.sameResources(r, f.jm.jobR(id).orElseThrow()))
          .as("job %d: eventlog R %s, job manager %s", id, r.summary(), f.jm.jobR(id))
          .isTrue();
      assertThat(JmFixture.sameResources(releasing, f.jm.releasing(id).orElseThrow()))
          .as("job %d: releasing", id)
          .isTrue();
    } else {
      assertThat(f.jm.jobR(id)).isEmpty();
    }
  }
}
