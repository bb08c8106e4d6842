package io.fluxdrm.rpc.transcript;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer behind a server's {@code --transcript FILE}: each transcript line goes to the file in
 * one write of its own, as soon as it is complete, so a server killed at any point (SIGKILL
 * included) leaves a file of whole lines that replays up to its last one. The file is bounded: a
 * line that would take it past {@code limit} bytes is not written, and recording stops there with
 * one warning naming the file and the limit (the server goes on serving). Not thread-safe: the
 * {@link TranscriptRecorder} that writes through it runs on one loop.
 *
 * <p>Stable: user tests may rely on it; it changes only with a decision that says so
 * (docs/transcripts.md, "What is stable").
 */
public final class TranscriptFile extends Writer {
  private static final Logger LOG = LoggerFactory.getLogger(TranscriptFile.class);

  /** The default bound of a transcript file: 256 MiB. */
  public static final long DEFAULT_LIMIT = 256L << 20;

  private final Path path;
  private final FileChannel channel;
  private final long limit;
  private final StringBuilder line = new StringBuilder();
  private long written;
  private boolean stopped;
  private long lines;

  private TranscriptFile(Path path, FileChannel channel, long limit) {
    this.path = path;
    this.channel = channel;
    this.limit = limit;
  }

  /**
   * Creates (or truncates) {@code path} for a new transcript. Its directory must exist: none is
   * created.
   *
   * @param limit the most bytes the file may hold, at least 1
   * @throws RpcException EINVAL for a limit below 1; EIO naming the file and the cause when it
   *     cannot be opened for writing
   */
  public static TranscriptFile create(Path path, long limit) {
    if (limit < 1) {
      throw new RpcException(
          Errno.EINVAL, "transcript limit " + limit + " bytes (expected: at least 1)");
    }
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      throw new RpcException(
          Errno.EIO, path + ": cannot write (no directory " + parent.getFileName() + ")");
    }
    try {
      FileChannel ch =
          FileChannel.open(
              path,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING);
      return new TranscriptFile(path, ch, limit);
    } catch (IOException | SecurityException e) {
      throw new RpcException(Errno.EIO, path + ": cannot write (" + reason(e) + ")");
    }
  }

  private static String reason(Exception e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }

  /** The file's path. */
  public Path path() {
    return path;
  }

  /** The complete lines written so far. */
  public long lines() {
    return lines;
  }

  /** Whether recording stopped at the limit. */
  public boolean stopped() {
    return stopped;
  }

  @Override
  public void write(char[] cbuf, int off, int len) throws IOException {
    for (int i = off; i < off + len; i++) {
      char c = cbuf[i];
      line.append(c);
      if (c == '\n') {
        emit();
      }
    }
  }

  @Override
  public void write(String s) throws IOException {
    int start = 0;
    for (int i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', start)) {
      line.append(s, start, i + 1);
      emit();
      start = i + 1;
    }
    line.append(s, start, s.length());
  }

  @Override
  public void write(int c) throws IOException {
    line.append((char) c);
    if (c == '\n') {
      emit();
    }
  }

  private void emit() throws IOException {
    byte[] bytes = line.toString().getBytes(StandardCharsets.UTF_8);
    line.setLength(0);
    if (stopped) {
      return;
    }
    if (written + bytes.length > limit) {
      stopped = true;
      LOG.warn(
          "transcript {}: {} line(s), {} bytes; the next line would pass the limit of {} bytes:"
              + " recording stops",
          path,
          lines,
          written,
          limit);
      return;
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      channel.write(b);
    }
    written += bytes.length;
    lines++;
  }

  /** Nothing is held between lines: each complete line is written when it ends. */
  @Override
  public void flush() {}

  /** Closes the file; a line not ended by a newline is dropped. */
  @Override
  public void close() throws IOException {
    line.setLength(0);
    channel.close();
  }
}
