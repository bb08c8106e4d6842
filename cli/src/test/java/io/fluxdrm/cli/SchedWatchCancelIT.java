package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.client.RpcStream;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rpc.transcript.TranscriptLine;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29 (D520): a {@code sched.watch} stream canceled by its owner ends cleanly at a running
 * {@code fluxdrm sched}: the cancel is the watch's own, {@code sched.watch-cancel}, which the
 * scheduler answers by ending the stream with ENODATA; no {@code sched.cancel} (RFC 27's cancel of
 * an alloc, which refused the watch's matchtag as a bad request) reaches it, and its log has no
 * refused request. What crossed the scheduler's endpoint is read from its own transcript.
 */
@Timeout(120)
class SchedWatchCancelIT {
  @TempDir Path dir;

  @Test
  void watchCanceled_endsWithEnodata_noSchedCancel_noRefusalLogged() throws Exception {
    Path hub = dir.resolve("hub");
    Path t = dir.resolve("sched.jsonl");
    try (SchedProcess p =
            SchedProcess.start(
                dir,
                "sched",
                "--listen",
                "unix:" + hub,
                "--hosts",
                "node[0-3]",
                "--cores",
                "0-3",
                "--transcript",
                t.toString());
        Reactor reactor = Reactor.start("watch-cancel-it")) {
      p.awaitLog("listening on ");
      // the watch needs the scheduler's core, made once it is ready
      p.awaitLog("ready: pool ");
      FluxHandle h =
          FluxHandle.connect(reactor, "local://" + hub.resolve("local"), Duration.ofSeconds(60));
      try {
        CompletableFuture<Message> snapshot = new CompletableFuture<>();
        RpcStream s = h.stream("sched.watch", Json.object(), snapshot::complete, null);
        s.done()
            .whenComplete(
                (v, e) ->
                    snapshot.completeExceptionally(
                        e != null ? e : new IllegalStateException("the watch ended at once")));
        assertThat(snapshot.get().json().has("pool")).isTrue();
        s.cancel();
        // ENODATA: the stream's normal end
        s.done().get();
      } finally {
        reactor.runAndWait(h::close, Duration.ofSeconds(10));
      }
      assertThat(p.terminate()).isEqualTo(143);
      assertThat(p.stderr())
          .doesNotContain("sched.cancel")
          .doesNotContain("sched.watch-cancel:")
          .doesNotContain("WARN");
    }
    List<TranscriptLine> lines = Transcript.read(t);
    assertThat(lines)
        .filteredOn(l -> l.message().type() == MessageType.REQUEST)
        .extracting(l -> l.message().topic())
        .contains("sched.watch", "sched.watch-cancel")
        .doesNotContain("sched.cancel");
    assertThat(lines)
        .filteredOn(
            l ->
                l.direction() == MessageTap.Direction.OUT
                    && l.message().type() == MessageType.RESPONSE
                    && l.message().topic().equals("sched.watch"))
        .extracting(l -> l.message().errnum())
        .containsExactly(0, Errno.ENODATA);
  }
}
