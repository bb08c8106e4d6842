package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.jobmanager.BridgeService;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.Answer;
import io.fluxdrm.shell.ShellPlugin;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code fluxdrm sched --listen tcp://127.0.0.1:*} (or {@code unix:DIR}) and {@code fluxdrm bridge
 * --connect ...} as real processes, and a job shell (the shell plugin) in this JVM over ZeroMQ
 * loopback (or the Unix socket): a job submitted with {@code bridge.submit} grows by a node and
 * shrinks back (release, {@code sched.free final: false}); SIGTERM stops the bridge (exit 143); a
 * bridge restarted on the same state directory recovers the job, grows it again and ends it with
 * {@code bridge.finish}.
 */
@Timeout(120)
class BridgeCommandIT {
  private static final Pattern LISTENING = Pattern.compile("listening on (\\S+)");

  static Process start(Path log, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  static String awaitLog(Path log, Pattern p, Process proc) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
      Matcher m = p.matcher(text);
      if (m.find()) {
        return m.groupCount() > 0 ? m.group(1) : m.group();
      }
      assertThat(proc.isAlive()).as("process alive, log: %s", text).isTrue();
      Thread.sleep(50); // polling with a deadline
    }
    throw new AssertionError("no " + p + " in " + Files.readString(log));
  }

  static ObjectNode nodes(int n) {
    ObjectNode slot = Json.object().put("type", "slot").put("count", 1).put("label", "task");
    slot.putArray("with").addObject().put("type", "core").put("count", 1);
    ObjectNode node = Json.object().put("type", "node").put("count", n).put("exclusive", true);
    node.putArray("with").add(slot);
    ObjectNode js = Json.object().put("version", 1);
    js.putArray("resources").add(node);
    ObjectNode task = js.putArray("tasks").addObject().put("slot", "task");
    task.putArray("command").add("true");
    task.putObject("count").put("per_slot", 1);
    js.putObject("attributes").putObject("system").put("duration", 0);
    return js;
  }

  /**
   * {@code bridge.submit}, retried while the bridge is not there yet (ENOSYS) or its scheduler is
   * not online yet (EAGAIN).
   */
  static ObjectNode submit(FluxHandle h, ObjectNode jobspec) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        return h.rpc("bridge.submit", Json.object().set("jobspec", jobspec))
            .get(10, TimeUnit.SECONDS)
            .json();
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof RpcException r)
            || r.errnum() != BridgeService.EAGAIN && r.errnum() != Errno.ENOSYS
            || System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(50); // polling with a deadline
      }
    }
  }

  static String allocated(FluxHandle h) throws Exception {
    Message m = h.rpc("sched.resource-status", Json.object()).get(10, TimeUnit.SECONDS);
    return ResourceSet.fromJson(m.json().get("allocated")).summary();
  }

  static void awaitAllocated(FluxHandle h, String want) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!allocated(h).equals(want) && System.nanoTime() < deadline) {
      Thread.sleep(20); // polling with a deadline
    }
    assertThat(allocated(h)).isEqualTo(want);
  }

  /** Grows the job by a node, then shrinks that node away and hands it back. */
  private static void growAndShrink(ShellPlugin shell, FluxHandle h, ResourceSet initial)
      throws Exception {
    Answer grow = shell.realloc(nodes(1), null, null).get(10, TimeUnit.SECONDS);
    assertThat(grow).isInstanceOf(Answer.Success.class);
    ResourceSet added = ((Answer.Success) grow).added();
    assertThat(added.nnodes()).isEqualTo(1);
    awaitAllocated(h, initial.union(added).summary());

    Answer shrink = shell.realloc(null, nodes(1), added).get(10, TimeUnit.SECONDS);
    assertThat(((Answer.Success) shrink).removed().summary()).isEqualTo(added.summary());
    ResourceSet after = shell.tasksExited(added.ranks()).get(10, TimeUnit.SECONDS);
    assertThat(after.summary()).isEqualTo(initial.summary());
    awaitAllocated(h, initial.summary());
  }

  /**
   * The first bridge stops on SIGTERM (its goodbye reaches the hub) or dies on SIGKILL (no goodbye:
   * the hub notices by EOF on a Unix socket, by its liveness checks over ZeroMQ, D152); either way
   * the scheduler learns that the job manager left and says hello to the second bridge.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"tcp, TERM", "unix, TERM", "tcp, KILL", "unix, KILL"})
  void bridge_overHub_growShrinkRestartRecoversAndFinishes(
      String transport, String signal, @TempDir Path dir) throws Exception {
    boolean tcp = transport.equals("tcp");
    boolean kill = signal.equals("KILL");
    String listen = tcp ? "tcp://127.0.0.1:*" : "unix:" + dir.resolve("hub");
    Path schedLog = dir.resolve("sched.log");
    Path bridgeLog = dir.resolve("bridge1.log");
    Path state = dir.resolve("state");
    Process sched =
        tcp
            ? start(
                schedLog,
                "sched",
                "--listen",
                listen,
                "--tcp-loopback-role",
                "owner",
                "--hosts",
                "node[0-3]",
                "--cores",
                "0-3")
            : start(
                schedLog, "sched", "--listen", listen, "--hosts", "node[0-3]", "--cores", "0-3");
    Process bridge = null;
    try (Reactor reactor = Reactor.start("bridge-it")) {
      String uri = awaitLog(schedLog, LISTENING, sched);
      // the bridge takes sched's own word for a Unix hub; the test's client the socket's URI
      String endpoint = tcp ? uri : listen;
      bridge = start(bridgeLog, "bridge", "--connect", endpoint, "--state-dir", state.toString());
      FluxHandle h =
          tcp
              ? FluxHandle.connectZmq(reactor, uri, null)
              : FluxHandle.connect(reactor, uri, Duration.ofSeconds(20));
      ObjectNode job = submit(h, nodes(1));
      long id = job.get("id").asLong();
      int uid = job.get("userid").asInt();
      ResourceSet initial = ResourceSet.fromJson(job.get("R"));
      assertThat(initial.nnodes()).isEqualTo(1);
      ShellPlugin shell = ShellPlugin.create(id, uid, initial);
      shell.start(h).get(10, TimeUnit.SECONDS);

      growAndShrink(shell, h, initial);

      List<String> removed = new CopyOnWriteArrayList<>();
      h.subscribe(Hub.SERVICE_REMOVED, m -> removed.add(m.json().path("service").asText()))
          .get(10, TimeUnit.SECONDS);
      if (kill) {
        bridge.destroyForcibly();
      } else {
        bridge.destroy();
      }
      assertThat(bridge.waitFor(20, TimeUnit.SECONDS)).as("stops on SIG" + signal).isTrue();
      assertThat(bridge.exitValue()).isEqualTo(kill ? 137 : 143);
      String log = Files.readString(bridgeLog);
      // job ids in F58, as the scheduler's and flux-core's logs have them (decision D497)
      String f58 = io.fluxdrm.rpc.JobId.f58(id);
      assertThat(log)
          .contains("alloc " + f58 + ": " + initial.summary())
          .contains("realloc " + f58 + " alloc_id=")
          .contains("release " + f58 + ": ");
      if (!kill) {
        assertThat(log).contains("stopping");
      }
      // the hub must have let the job manager go before a second one can register its name
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!removed.contains("job-manager") && System.nanoTime() < deadline) {
        Thread.sleep(20); // polling with a deadline
      }
      assertThat(removed).as("service.removed after SIG" + signal).contains("job-manager");

      Path bridgeLog2 = dir.resolve("bridge2.log");
      bridge = start(bridgeLog2, "bridge", "--connect", endpoint, "--state-dir", state.toString());
      try {
        awaitLog(bridgeLog2, Pattern.compile("sched-hello: 1 job\\(s\\)"), bridge);
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + "\nsched log:\n" + Files.readString(schedLog), e);
      }
      assertThat(Files.readString(bridgeLog2)).contains("recovered 1 job(s)");
      growAndShrink(shell, h, initial);

      h.rpc("bridge.finish", Json.object().put("id", id)).get(10, TimeUnit.SECONDS);
      awaitAllocated(h, "");
      h.close();
    } finally {
      if (bridge != null) {
        bridge.destroy();
        bridge.waitFor(20, TimeUnit.SECONDS);
      }
      sched.destroy();
      sched.waitFor(20, TimeUnit.SECONDS);
    }
  }
}
