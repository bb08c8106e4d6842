package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.fixture.Wait;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.ResourceSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13 scope 4 end to end, every part a process: {@code fluxdrm sched} (embedded defaults,
 * node[0-3]), {@code fluxdrm bridge --dvm} (the job manager, and the scheduler of the DVM), {@code
 * fluxdrm dvm --check-invariants} and {@code fluxdrm alloc} as a tool of the DVM. A NEW reaches
 * {@code sched.realloc} and becomes a DVM session, an EXTEND adds to it, a RELEASE frees the nodes
 * in the scheduler, a grant the DVM refuses is handed back (D376), a DENY leaves the DVM unchanged,
 * the sessions of a DVM that stops go back to Flux, and a restarted DVM is attached again (D377).
 * Waits on outputs only.
 */
@Timeout(300)
class DvmBridgeIT {
  private static final Duration SLOW = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ATTACHED = "scheduler of the DVM at";

  @TempDir Path dir;
  private final List<Process> procs = new ArrayList<>();
  private int runs;

  @AfterEach
  void stopAll() throws Exception {
    for (int i = procs.size() - 1; i >= 0; i--) {
      Process p = procs.get(i);
      p.destroy();
      assertThat(p.waitFor(SLOW.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }
  }

  private Process fluxdrm(String name, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(dir.resolve(name + ".out").toFile())
            .redirectError(dir.resolve(name + ".err").toFile())
            .start();
    p.getOutputStream().close();
    return p;
  }

  private String read(String file) {
    try {
      Path p = dir.resolve(file);
      return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }

  /** Waits until {@code file} holds {@code what} {@code times} times, the process alive. */
  private void await(Process p, String file, String what, int times) {
    long deadline = System.nanoTime() + SLOW.toNanos();
    while (count(read(file), what) < times) {
      assertThat(p.isAlive()).as("%s alive; its output: %s", file, read(file)).isTrue();
      assertThat(System.nanoTime() - deadline)
          .as("'%s' x%d in %s within %s: %s", what, times, file, SLOW, read(file))
          .isNegative();
      try {
        Thread.sleep(20); // polling with a deadline
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }

  private Process startDvm(String name) throws IOException {
    Process dvm =
        fluxdrm(
            name,
            "dvm",
            "--hosts",
            "node[0-3]",
            "--slots",
            "4",
            "--simulated",
            "--listen",
            "unix:" + dir.resolve("dvm"),
            "--check-invariants");
    procs.add(dvm);
    await(dvm, name + ".out", "listening on", 1);
    return dvm;
  }

  /** One command as a process: its exit status and JSON answer. */
  record Answer(int status, JsonNode json, String stderr) {
    String info(String key) {
      for (JsonNode i : json.get("infos")) {
        if (i.get("key").asText().equals(key)) {
          return i.get("value").asText();
        }
      }
      throw new AssertionError("no " + key + " in " + json);
    }

    String pmixStatus() {
      return json.get("status").asText();
    }
  }

  private Answer command(String command, String... args) throws Exception {
    String name = command + "-" + (++runs);
    List<String> a = new ArrayList<>(List.of(command, args[0]));
    a.add("--connect");
    a.add("unix:" + dir.resolve("dvm"));
    a.add("--json");
    a.addAll(List.of(args).subList(1, args.length));
    Process p = fluxdrm(name, a.toArray(String[]::new));
    assertThat(p.waitFor(SLOW.toSeconds(), TimeUnit.SECONDS)).as(name + " exits").isTrue();
    String out = read(name + ".out");
    String err = read(name + ".err");
    assertThat(out).as("%s stdout (stderr: %s)", name, err).isNotBlank();
    assertThat(err).as("no stack trace").doesNotContain("\tat ");
    return new Answer(p.exitValue(), JSON.readTree(out), err);
  }

  /** The hosts the scheduler has allocated, by {@code sched.resource-status}. */
  private static Set<String> allocated(FluxHandle sched) throws Exception {
    Message m = sched.rpc("sched.resource-status", Json.object()).get(10, TimeUnit.SECONDS);
    return new TreeSet<>(ResourceSet.fromJson(m.json().get("allocated")).nodelist().expand());
  }

  private static void awaitAllocated(FluxHandle sched, Set<String> want) throws Exception {
    Wait.until(
        SLOW,
        () -> {
          try {
            return allocated(sched).equals(want);
          } catch (Exception e) {
            throw new AssertionError(e);
          }
        });
  }

  private static Set<String> plus(Set<String> a, String... more) {
    Set<String> s = new TreeSet<>(a);
    s.addAll(List.of(more));
    return s;
  }

  @Test
  void bridgeAsTheDvmsScheduler_newExtendRelease_refusedGrantHandedBack_denyChangesNothing_restart()
      throws Exception {
    Process sched =
        fluxdrm(
            "sched",
            "sched",
            "--listen",
            "unix:" + dir.resolve("sched"),
            "--hosts",
            "node[0-3]",
            "--cores",
            "0-3");
    procs.add(sched);
    await(sched, "sched.err", "listening on", 1);
    Matcher lm = Pattern.compile("listening on (\\S+)").matcher(read("sched.err"));
    assertThat(lm.find()).isTrue();

    // the DVM first; with no scheduler attached its master executes the owner's session control:
    // node2 is then held by session 5 of the DVM, which Flux does not know
    Process dvm = startDvm("dvm1");
    Answer busy = command("sessionctrl", "instantiate", "5", "--hosts", "node2");
    assertThat(busy.status()).as(busy.stderr()).isZero();

    Process bridge =
        fluxdrm(
            "bridge",
            "bridge",
            "--connect",
            "unix:" + dir.resolve("sched"),
            "--state-dir",
            dir.resolve("state").toString(),
            "--dvm",
            "unix:" + dir.resolve("dvm"));
    procs.add(1, bridge);
    await(bridge, "bridge.err", ATTACHED, 1);
    await(dvm, "dvm1.err", "scheduler fluxdrm", 1);

    try (Reactor reactor = Reactor.start("dvm-bridge-it")) {
      FluxHandle h = FluxHandle.connect(reactor, lm.group(1), SLOW);
      Set<String> dvmJob = allocated(h);
      assertThat(dvmJob).as("the DVM's job: one node").hasSize(1).doesNotContain("node2");
      String free =
          List.of("node0", "node1", "node3").stream()
              .filter(n -> !dvmJob.contains(n))
              .findFirst()
              .orElseThrow();
      String other =
          List.of("node0", "node1", "node3").stream()
              .filter(n -> !dvmJob.contains(n) && !n.equals(free))
              .findFirst()
              .orElseThrow();

      // NEW: sched.realloc grants it, the DVM gets a session of that id before the answer
      Answer n = command("alloc", "new", "--hosts", free);
      assertThat(n.status()).as(n.stderr()).isZero();
      String id = n.info(PmixKey.PMIX_ALLOC_ID);
      assertThat(n.info(PmixKey.PMIX_ALLOC_NODE_LIST)).isEqualTo(free + ":4");
      assertThat(read("dvm1.err"))
          .contains("session " + id + " (alloc id " + id + ") created on [" + free + "]");
      assertThat(read("bridge.err")).contains("realloc ");
      assertThat(allocated(h)).isEqualTo(plus(dvmJob, free));

      // EXTEND of that reservation: one more node, in Flux and in the DVM's session
      Answer e = command("alloc", "extend", "--alloc-id", id, "--hosts", other);
      assertThat(e.status()).as(e.stderr()).isZero();
      assertThat(e.info(PmixKey.PMIX_ALLOC_ID)).isEqualTo(id);
      assertThat(allocated(h)).isEqualTo(plus(dvmJob, free, other));
      assertThat(read("bridge.err")).contains("session control EXTEND " + id);

      // a grant the DVM refuses (node2 is its session 5's): the DVM's status, Flux frees node2
      Answer refused = command("alloc", "new", "--hosts", "node2");
      assertThat(refused.status()).isEqualTo(Main.EXIT_ERROR);
      assertThat(refused.pmixStatus()).isEqualTo("PMIX_ERR_RESOURCE_BUSY");
      awaitAllocated(h, plus(dvmJob, free, other));
      assertThat(read("bridge.err")).contains("given back");

      // a DENY (more nodes than the pool has): nothing reaches the DVM
      int created = count(read("dvm1.err"), ") created on");
      Answer deny = command("alloc", "new", "--num-nodes", "9");
      assertThat(deny.status()).isEqualTo(Main.EXIT_ERROR);
      assertThat(deny.pmixStatus()).isEqualTo("PMIX_ERR_OUT_OF_RESOURCE");
      assertThat(count(read("dvm1.err"), ") created on")).isEqualTo(created);
      assertThat(allocated(h)).isEqualTo(plus(dvmJob, free, other));

      // RELEASE: the DVM's session is terminated, then the scheduler has the nodes back
      Answer r = command("alloc", "release", "--alloc-id", id);
      assertThat(r.status()).as(r.stderr()).isZero();
      await(dvm, "dvm1.err", "session " + id + " (alloc id " + id + ") reclaimed", 1);
      awaitAllocated(h, dvmJob);

      // the DVM stops holding a session: its nodes go back to Flux; the bridge, still running,
      // attaches to the DVM started anew
      Answer kept = command("alloc", "new", "--hosts", free);
      assertThat(kept.status()).as(kept.stderr()).isZero();
      assertThat(allocated(h)).isEqualTo(plus(dvmJob, free));
      dvm.destroy();
      assertThat(dvm.waitFor(SLOW.toSeconds(), TimeUnit.SECONDS)).isTrue();
      procs.remove(dvm);
      assertThat(read("dvm1.err")).doesNotContain("invariant broken");
      awaitAllocated(h, dvmJob);
      Process dvm2 = startDvm("dvm2");
      await(bridge, "bridge.err", ATTACHED, 2);
      Answer again = command("alloc", "new", "--hosts", free);
      assertThat(again.status()).as(again.stderr()).isZero();
      String id2 = again.info(PmixKey.PMIX_ALLOC_ID);
      assertThat(read("dvm2.err"))
          .contains("session " + id2 + " (alloc id " + id2 + ") created on [" + free + "]");
      Answer r2 = command("alloc", "release", "--alloc-id", id2);
      assertThat(r2.status()).as(r2.stderr()).isZero();
      awaitAllocated(h, dvmJob);
      h.close();
      assertThat(read("dvm2.err")).doesNotContain("invariant broken");
      assertThat(dvm2.isAlive()).isTrue();
    }
  }
}
