package io.fluxdrm.cli;

import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.transcript.TranscriptFile;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import java.nio.file.Path;
import java.time.Clock;
import org.slf4j.Logger;
import picocli.CommandLine.Option;

/**
 * The servers' {@code --transcript FILE} ({@code sched}, {@code bridge}, {@code dvm}): every
 * message crossing the server's own endpoint (its handle on the hub or toward the broker), one JSON
 * line each in the transcript-line schema, with the credentials the transport stamped; each line is
 * in the file as soon as it ends, so a killed server leaves a transcript that replays up to its
 * last line; at {@code --transcript-limit} bytes recording stops with one warning (docs/rpc.md,
 * "Recording a server").
 */
final class TranscriptOption {
  @Option(
      names = "--transcript",
      paramLabel = "FILE",
      description =
          "Record every message crossing this server's endpoint to FILE, one JSON line each"
              + " (replay it with fluxdrm replay)")
  Path file;

  @Option(
      names = "--transcript-limit",
      paramLabel = "BYTES",
      defaultValue = "268435456",
      description = "Recording stops when the transcript would pass this size (default: 256 MiB)")
  long limit;

  private TranscriptRecorder recorder;
  private TranscriptFile out;

  /**
   * Checks the options and opens the file (when {@code --transcript} was given), before anything
   * starts, so a file that cannot be written fails the command at once.
   *
   * @throws CliError a usage error for a limit below 1; an error when the file cannot be written
   */
  void check() {
    if (file == null) {
      return;
    }
    if (limit < 1) {
      throw CliError.usage("--transcript-limit " + limit + ": expected at least 1 byte");
    }
    try {
      out = TranscriptFile.create(file, limit);
    } catch (RpcException e) {
      throw new CliError("--transcript " + e.getMessage());
    }
  }

  /** Records what crosses {@code h}, when {@code --transcript} was given. */
  void record(FluxHandle h, Logger log) {
    if (out == null) {
      return;
    }
    recorder = new TranscriptRecorder(out, Clock.systemUTC());
    h.addTap(recorder);
    log.info("recording a transcript to {} (limit {} bytes)", file, limit);
  }

  /** Closes the file, if one was opened; a failure is logged, not thrown. */
  void close(Logger log) {
    if (recorder == null) {
      return;
    }
    try {
      recorder.close();
      log.info("transcript {}: {} line(s)", file, out.lines());
    } catch (RuntimeException e) {
      log.warn("transcript {}: close: {}", file, e.getMessage());
    }
  }
}
