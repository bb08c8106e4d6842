package io.fluxdrm.pmix.nativ;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * What the code under test logs, read back: stderr (slf4j-simple's target in these tests) is teed
 * into a buffer until {@link #close()}, so a test can check that a refusal says why in a log line.
 */
final class StderrCapture implements AutoCloseable {
  private final PrintStream saved = System.err;
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

  StderrCapture() {
    PrintStream original = saved;
    System.setErr(
        new PrintStream(
            new OutputStream() {
              @Override
              public void write(int b) {
                original.write(b);
                synchronized (buffer) {
                  buffer.write(b);
                }
              }

              @Override
              public void write(byte[] b, int off, int len) {
                original.write(b, off, len);
                synchronized (buffer) {
                  buffer.write(b, off, len);
                }
              }
            },
            true,
            StandardCharsets.UTF_8));
  }

  /** Everything written to stderr since this capture began. */
  String text() {
    synchronized (buffer) {
      return buffer.toString(StandardCharsets.UTF_8);
    }
  }

  @Override
  public void close() {
    System.err.flush();
    System.setErr(saved);
  }
}
