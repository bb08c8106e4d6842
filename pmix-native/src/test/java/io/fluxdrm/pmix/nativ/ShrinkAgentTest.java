package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's side of the shrink agent, against stand-in agent processes (a shell script
 * speaking the agent's line protocol, no libpmix): a shrink completes with the agent's {@code DONE}
 * code; a shrink PRRTE never reports (a node whose daemon never started) fails after the agent's
 * bound with a message naming the hosts, instead of waiting for ever, and a late {@code DONE}
 * changes nothing.
 */
class ShrinkAgentTest {
  private final ExecutorService loop = Executors.newSingleThreadExecutor();
  private ShrinkAgent agent;

  @AfterEach
  void stop() {
    if (agent != null) {
      agent.close();
    }
    loop.shutdownNow();
  }

  private ShrinkAgent agent(String script, Duration timeout) throws Exception {
    agent = new ShrinkAgent("file:none", "", loop, List.of("sh", "-c", script), timeout);
    assertThat(agent.nspace().toCompletableFuture().get(30, TimeUnit.SECONDS))
        .isEqualTo("agent-ns");
    return agent;
  }

  @Test
  void aShrinkTheAgentReports_completesWithItsCode() throws Exception {
    ShrinkAgent a =
        agent(
            "echo READY agent-ns; while read cmd req hosts; do echo DONE $req -195; done",
            Duration.ofSeconds(60));
    assertThat(a.shrink("r1", "node1").toCompletableFuture().get(30, TimeUnit.SECONDS))
        .isEqualTo(-195);
  }

  @Test
  void aShrinkNeverReported_failsAfterTheBound_namingTheHosts() throws Exception {
    // the stand-in keeps its standard output open (an "exec cat > /dev/null" closed it: the agent
    // then ended, racing the bound)
    ShrinkAgent a = agent("echo READY agent-ns; cat > /dev/null", Duration.ofSeconds(1));
    CompletableFuture<Integer> f = a.shrink("r2", "node2,node3").toCompletableFuture();
    try {
      f.get(30, TimeUnit.SECONDS);
      throw new AssertionError("a shrink nobody reported completed");
    } catch (ExecutionException e) {
      assertThat(e.getCause())
          .isInstanceOf(PmixNativeException.class)
          .hasMessageContaining("PRRTE reported no departure of node2,node3 within 1 s")
          .hasMessageContaining(ShrinkAgent.TIMEOUT_PROPERTY);
    }
  }
}
