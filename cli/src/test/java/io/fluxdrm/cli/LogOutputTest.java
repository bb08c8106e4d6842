package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LogOutputTest {
  /** A file descriptor's stand-in: counts the writes that reach it. */
  private static final class Sink extends ByteArrayOutputStream {
    int writes;
    final CountDownLatch first = new CountDownLatch(1);

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      super.write(b, off, len);
      writes++;
      first.countDown();
    }

    synchronized String text() {
      return toString(StandardCharsets.UTF_8);
    }
  }

  @Test
  void lines_waitUntilWritten_thenLeaveInOneWrite() throws Exception {
    Sink fd = new Sink();
    LogOutput log = new LogOutput(fd, Duration.ofDays(1)); // no writer thread: nothing leaves alone
    PrintStream err = new LogOutput.Lines(log, StandardCharsets.UTF_8);
    err.println("alloc ƒ1: rank0/core0");
    err.flush(); // what slf4j-simple does after every line
    err.println("free ƒ1: rank0/core0 (final)");
    err.flush();
    assertThat(fd.text()).isEmpty();
    log.writeNow();
    assertThat(fd.text()).isEqualTo("alloc ƒ1: rank0/core0\nfree ƒ1: rank0/core0 (final)\n");
    assertThat(fd.writes).isEqualTo(1);
  }

  @Test
  void linesPrintedWholeOrInParts_keepTheirOrderAndCharset() throws Exception {
    Sink fd = new Sink();
    LogOutput log = new LogOutput(fd, Duration.ofDays(1));
    PrintStream err = new LogOutput.Lines(log, StandardCharsets.UTF_8);
    err.print("hello ");
    err.println("ƒ1");
    err.println((String) null);
    err.println(42);
    err.println("é");
    log.writeNow();
    assertThat(fd.text())
        .isEqualTo("hello ƒ1\nnull\n42\né\n".replace("\n", System.lineSeparator()));
  }

  @Test
  void writerThread_writesABatchAfterTheDelay() throws Exception {
    Sink fd = new Sink();
    LogOutput log = new LogOutput(fd, Duration.ofMillis(1));
    log.start("log-test");
    new PrintStream(log, false, StandardCharsets.UTF_8).println("ready: attached");
    assertThat(fd.first.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(fd.text()).isEqualTo("ready: attached\n");
  }

  @Test
  void whileDiscarding_nothingIsKept() throws Exception {
    Sink fd = new Sink();
    LogOutput log = new LogOutput(fd, Duration.ofDays(1));
    PrintStream err = new PrintStream(log, false, StandardCharsets.UTF_8);
    err.println("before");
    log.setDiscarding(true);
    err.println("alloc of a rehearsal job");
    log.setDiscarding(false);
    err.println("after");
    log.writeNow();
    assertThat(fd.text()).isEqualTo("before\nafter\n");
  }

  @Test
  void burstLargerThanTheBuffer_isWrittenAsItComes() throws Exception {
    Sink fd = new Sink();
    LogOutput log = new LogOutput(fd, Duration.ofDays(1));
    log.write(new byte[LogOutput.BUFFER + 1], 0, LogOutput.BUFFER + 1);
    assertThat(fd.size()).isEqualTo(LogOutput.BUFFER + 1);
  }
}
