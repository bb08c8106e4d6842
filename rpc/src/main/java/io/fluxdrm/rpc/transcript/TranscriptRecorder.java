package io.fluxdrm.rpc.transcript;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.MessageTap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes every message crossing an endpoint as one JSON line. Install it with {@code
 * handle.tap(recorder)}; it runs on the loop and writes through the given writer (buffer it).
 *
 * <p>Stable: user tests may rely on it; it changes only with a decision that says so
 * (docs/transcripts.md, "What is stable").
 */
public final class TranscriptRecorder implements MessageTap, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TranscriptRecorder.class);

  private final Writer out;
  private final Clock clock;
  private boolean failed;
  private volatile boolean closed;

  /** Creates a recorder writing to {@code out} with times from {@code clock}. */
  public TranscriptRecorder(Writer out, Clock clock) {
    this.out = out;
    this.clock = clock;
  }

  @Override
  public void onMessage(Direction direction, Message message) {
    if (failed || closed) {
      return; // a message after close (a server's last goodbyes) is not recorded
    }
    TranscriptLine line = new TranscriptLine(clock.instant(), direction, message);
    try {
      out.write(Json.mapper().writeValueAsString(line.toJson()));
      out.write('\n');
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      failed = true;
      LOG.error("transcript: write failed, recording stops: {}", e.getMessage());
    }
  }

  /** Flushes the writer. */
  public void flush() {
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Flushes and closes the writer. */
  @Override
  public void close() {
    closed = true;
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
