package io.fluxdrm.rpc.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.MessageTap;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TranscriptFileTest {
  @TempDir Path dir;

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-06T12:00:00Z"), ZoneOffset.UTC);

  @Test
  void eachLine_isInTheFileOnceItEnds_withoutFlushOrClose() throws Exception {
    Path f = dir.resolve("t.jsonl");
    TranscriptFile file = TranscriptFile.create(f, TranscriptFile.DEFAULT_LIMIT);
    TranscriptRecorder r = new TranscriptRecorder(file, CLOCK);
    r.onMessage(
        MessageTap.Direction.IN, Message.request("sched.alloc", Json.object().put("id", 1)));
    // what a SIGKILL now would leave: the file as it is, no flush, no close
    List<TranscriptLine> lines = Transcript.read(f);
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0).message().topic()).isEqualTo("sched.alloc");
    file.write("{\"partial");
    assertThat(Transcript.read(f)).as("a line not ended is not in the file").hasSize(1);
    file.close();
    assertThat(file.lines()).isEqualTo(1);
  }

  @Test
  void aLinePastTheLimit_stopsRecording_andTheFileKeepsWholeLines() throws Exception {
    Path f = dir.resolve("t.jsonl");
    String one = "{\"a\":1}\n";
    TranscriptFile file = TranscriptFile.create(f, one.length() * 2L + 3);
    file.write(one);
    file.write(one);
    assertThat(file.stopped()).isFalse();
    file.write(one);
    assertThat(file.stopped()).isTrue();
    file.write("{\"b\":1}\n"); // smaller lines after the stop are not written either
    file.close();
    assertThat(Files.readString(f, StandardCharsets.UTF_8)).isEqualTo(one + one);
    assertThat(file.lines()).isEqualTo(2);
  }

  @Test
  void anExistingFile_isTruncated() throws Exception {
    Path f = dir.resolve("t.jsonl");
    Files.writeString(f, "old\nlines\n");
    TranscriptFile file = TranscriptFile.create(f, 100);
    file.write("{}\n");
    file.close();
    assertThat(Files.readString(f)).isEqualTo("{}\n");
  }

  @Test
  void aMissingDirectory_isRefused_andNotCreated() {
    Path f = dir.resolve("no-such-dir").resolve("t.jsonl");
    assertThatThrownBy(() -> TranscriptFile.create(f, 100))
        .isInstanceOf(RpcException.class)
        .hasMessageContaining("cannot write (no directory no-such-dir)");
    assertThat(dir.resolve("no-such-dir")).doesNotExist();
  }

  @Test
  void aLimitBelowOne_isRefused() {
    assertThatThrownBy(() -> TranscriptFile.create(dir.resolve("t"), 0))
        .isInstanceOf(RpcException.class)
        .hasMessageContaining("expected: at least 1");
  }

  @Test
  void aDirectoryAsTheFile_isRefusedWithItsCause() {
    assertThatThrownBy(() -> TranscriptFile.create(dir, 100))
        .isInstanceOf(RpcException.class)
        .hasMessageContaining("cannot write (");
  }
}
