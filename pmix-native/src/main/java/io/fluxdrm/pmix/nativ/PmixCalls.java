package io.fluxdrm.pmix.nativ;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The blocking libpmix calls (init, attach, finalize) run on one thread of their own, never on the
 * reactor or on libpmix's progress thread.
 */
final class PmixCalls {
  private PmixCalls() {}

  private static final ExecutorService BLOCKING =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "fluxdrm-pmix-calls");
            t.setDaemon(true);
            return t;
          });

  static <T> CompletableFuture<T> blocking(Supplier<T> call) {
    return CompletableFuture.supplyAsync(call, BLOCKING);
  }

  /**
   * The infos that bound a tool's connection attempt to a DVM: its URI (or {@code file:PATH}), a
   * number of one-second retries, and {@code PMIX_TIMEOUT} (attaching otherwise may block forever,
   * peers/prrte/README).
   */
  static List<Info> connectInfos(String uri, Duration timeout) {
    long seconds = Math.max(1, timeout.toSeconds());
    List<Info> l = new ArrayList<>();
    l.add(Info.of(PmixKey.PMIX_SERVER_URI, uri));
    l.add(new Info(NativeKeys.CONNECT_MAX_RETRIES, PmixDataType.PMIX_UINT32, seconds));
    l.add(new Info(NativeKeys.CONNECT_RETRY_DELAY, PmixDataType.PMIX_UINT32, 1L));
    l.add(new Info(PmixKey.PMIX_TIMEOUT, PmixDataType.PMIX_INT, (int) seconds));
    return l;
  }

  /**
   * The message of a failed connection to a DVM: names the URI, and for a {@code file:PATH} whose
   * file never appeared, says so and how long it waited (a DVM that is missing, or was started
   * without {@code --report-uri PATH}).
   *
   * @param call the libpmix call
   * @param uri the DVM's URI or {@code file:PATH}
   * @param timeout how long was tried
   * @param status libpmix's status, as text
   * @return the message
   */
  static String connectFailure(String call, String uri, Duration timeout, String status) {
    if (uri.startsWith("file:")) {
      java.nio.file.Path f = java.nio.file.Path.of(uri.substring("file:".length()));
      if (!java.nio.file.Files.exists(f)) {
        return call
            + " "
            + uri
            + ": "
            + status
            + ": no DVM: its URI file "
            + f
            + " did not appear within "
            + Math.max(1, timeout.toSeconds())
            + " s (expected: prte ... --report-uri "
            + f
            + " running)";
      }
    }
    return call + " " + uri + ": " + status;
  }
}
