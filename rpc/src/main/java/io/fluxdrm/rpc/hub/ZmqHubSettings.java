package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.transport.ZmtpConnection;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings of a {@link ZmqHubListener}: its {@link Options}, with CURVE ({@link Curve}),
 * liveness ({@link Liveness}) and connection caps and memory budgets ({@link Limits}) (issue 31,
 * scope 7; decision D542). Passed to {@link ZmqHubListener#start}.
 */
public final class ZmqHubSettings {
  /** Logged under the listener's name, as before the settings left it (D542). */
  private static final Logger LOG = LoggerFactory.getLogger(ZmqHubListener.class);

  private ZmqHubSettings() {}

  /**
   * CURVE settings of the hub.
   *
   * @param publicKey the server's public key (Z85)
   * @param secretKey the server's secret key (Z85)
   * @param clients the allowed client public keys (Z85) and the credentials each gets
   */
  public record Curve(String publicKey, String secretKey, Map<String, Credentials> clients) {
    /** Copies the client map. */
    public Curve {
      clients = Map.copyOf(clients);
    }
  }

  /**
   * How the hub notices a peer that went away without a goodbye (decision D173). A peer whose
   * connection closes (its process ended, its host reset the connection) is disconnected at once.
   * For a peer that goes silent with its connection open, the hub sends every connection a PING
   * every {@code interval} (libzmq 4.2 and later and JeroMQ answer by themselves) and closes a
   * connection with no traffic for {@code timeout}; the PINGs carry {@code timeout} as their time
   * to live, so the peer drops a silent hub too. A ZMTP 3.0 stack (libzmq 4.1) does not answer
   * PINGs: serve it with {@link #OFF}.
   *
   * @param interval the ZMTP PING period; zero turns liveness off (only a goodbye or a closed
   *     connection then disconnects a peer)
   * @param timeout how long a connection may stay silent once PINGed
   */
  public record Liveness(Duration interval, Duration timeout) {
    /** The default: PING every second, close after 5 s of silence. */
    public static final Liveness DEFAULT =
        new Liveness(Duration.ofSeconds(1), Duration.ofSeconds(5));

    /** No liveness checks. */
    public static final Liveness OFF = new Liveness(Duration.ZERO, Duration.ZERO);

    /** Checks the durations. */
    public Liveness {
      if (interval.isNegative() || timeout.isNegative()) {
        throw new IllegalArgumentException("liveness: negative duration (expected: zero or more)");
      }
      if (!interval.isZero() && timeout.compareTo(interval) < 0) {
        throw new IllegalArgumentException(
            "liveness: timeout "
                + timeout.toMillis()
                + " ms is shorter than the interval "
                + interval.toMillis()
                + " ms (expected: at least the interval)");
      }
      if (timeout.toMillis() > 6_553_500) {
        throw new IllegalArgumentException(
            "liveness: timeout above 6553.5 s (expected: a ZMTP heartbeat time to live)");
      }
      if (!interval.isZero() && interval.toMillis() == 0) {
        throw new IllegalArgumentException(
            "liveness: interval below 1 ms (expected: 1 ms or more)");
      }
    }

    /** Returns whether liveness checks are on. */
    public boolean enabled() {
      return !interval.isZero();
    }
  }

  /**
   * What one listener lets its peers hold (issue 12, findings 1, 9 and 10). A peer's key is its
   * CURVE long-term key; without CURVE nothing tells one local peer from another, so each
   * connection is a key of its own (decision D209) and only the listener's caps bind them together.
   *
   * @param maxConnections connections open at once, handshaking or not; more are closed at accept
   * @param maxPerKey connections with a finished handshake per key; more are refused
   * @param memory bytes the incomplete frames and messages of all connections may hold
   * @param memoryPerKey bytes those of one key's connections may hold
   * @param frameFloor the least time a frame in progress is given
   * @param frameMinRate bytes per second a large frame must arrive at beyond the floor
   */
  public record Limits(
      int maxConnections,
      int maxPerKey,
      long memory,
      long memoryPerKey,
      Duration frameFloor,
      long frameMinRate) {
    /** System property: {@link #maxConnections}. */
    public static final String MAX_CONNECTIONS = "fluxdrm.zmq.max-connections";

    /** System property: {@link #maxPerKey}. */
    public static final String MAX_PER_KEY = "fluxdrm.zmq.max-connections-per-key";

    /** System property: {@link #memory}, in MiB. */
    public static final String MEMORY = "fluxdrm.zmq.frame-memory-mib";

    /** System property: {@link #memoryPerKey}, in MiB. */
    public static final String MEMORY_PER_KEY = "fluxdrm.zmq.frame-memory-per-key-mib";

    /** Checks the values. */
    public Limits {
      if (maxConnections < 1 || maxPerKey < 1 || memory < 0 || memoryPerKey < 0) {
        throw new IllegalArgumentException(
            "limits: connections below 1 or negative memory (expected: 1 or more, 0 or more)");
      }
      Objects.requireNonNull(frameFloor, "frameFloor");
      if (frameFloor.isNegative() || frameFloor.isZero() || frameMinRate <= 0) {
        throw new IllegalArgumentException(
            "limits: frame floor and rate must be positive (expected: more than zero)");
      }
    }

    /**
     * The defaults, each overridden by its system property when set to a valid number: 1024
     * connections, 256 per key, frame memory a quarter of the heap (at most 256 MiB, at least 16
     * MiB) and per key 80 MiB (one largest message and its envelope; at most the total).
     */
    public static Limits defaults() {
      long quarter = Math.max(16, Math.min(256, (Runtime.getRuntime().maxMemory() / 4) >> 20));
      long total = property(MEMORY, quarter, 0, 1L << 30);
      return new Limits(
          (int) property(MAX_CONNECTIONS, 1024, 1, Integer.MAX_VALUE),
          (int) property(MAX_PER_KEY, 256, 1, Integer.MAX_VALUE),
          total << 20,
          property(MEMORY_PER_KEY, Math.min(80, total), 0, 1L << 30) << 20,
          ZmtpConnection.FRAME_FLOOR,
          ZmtpConnection.MIN_RATE);
    }

    private static long property(String name, long dflt, long min, long max) {
      String v = System.getProperty(name);
      if (v == null || v.isBlank()) {
        return dflt;
      }
      try {
        long n = Long.parseLong(v.trim());
        if (n >= min && n <= max) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      LOG.warn("{}={}: not a number from {} to {}; using {}", name, v, min, max, dflt);
      return dflt;
    }

    /** Returns these limits with other connection caps. */
    public Limits withConnections(int total, int perKey) {
      return new Limits(total, perKey, memory, memoryPerKey, frameFloor, frameMinRate);
    }

    /** Returns these limits with other memory budgets. */
    public Limits withMemory(long total, long perKey) {
      return new Limits(maxConnections, maxPerKey, total, perKey, frameFloor, frameMinRate);
    }

    /** Returns these limits with another frame progress rule. */
    public Limits withFrameProgress(Duration floor, long minRate) {
      return new Limits(maxConnections, maxPerKey, memory, memoryPerKey, floor, minRate);
    }
  }

  /**
   * Listener settings.
   *
   * @param curve CURVE settings, or null for none (loopback only)
   * @param loopbackCredentials the credentials of every peer when CURVE is off
   * @param maxMessageSize the largest message accepted; a larger one closes its sender's connection
   * @param maxQueuedBytes the output queued for a peer beyond which its connection is closed
   * @param liveness how a peer that vanishes is noticed
   * @param limits connection caps and memory budgets
   */
  public record Options(
      Curve curve,
      Credentials loopbackCredentials,
      int maxMessageSize,
      long maxQueuedBytes,
      Liveness liveness,
      Limits limits) {
    /** Requires liveness settings and limits. */
    public Options {
      Objects.requireNonNull(liveness, "liveness");
      Objects.requireNonNull(limits, "limits");
    }

    /**
     * Returns options without CURVE giving every peer the credentials of a guest of unknown uid
     * ({@link Credentials#unknownGuest()}): nothing tells one local uid from another on loopback
     * TCP, so no peer is the owner (issue 12, finding 5; decision D330).
     */
    public static Options loopbackGuests() {
      return loopback(Credentials.unknownGuest());
    }

    /**
     * Returns options without CURVE giving every peer the given credentials. Owner credentials make
     * every local user who connects the instance owner (logged as a warning at start): give owner
     * access on a host with several users through the Unix-socket hub instead.
     */
    public static Options loopback(Credentials credentials) {
      return new Options(
          null,
          credentials,
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
          Liveness.DEFAULT,
          Limits.defaults());
    }

    /** Returns options with CURVE. */
    public static Options curve(Curve curve) {
      return new Options(
          curve,
          null,
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
          Liveness.DEFAULT,
          Limits.defaults());
    }

    /** Returns these options with other size limits. */
    public Options withLimits(int maxMessage, long maxQueued) {
      return new Options(curve, loopbackCredentials, maxMessage, maxQueued, liveness, limits);
    }

    /** Returns these options with other connection and memory limits. */
    public Options withLimits(Limits l) {
      return new Options(curve, loopbackCredentials, maxMessageSize, maxQueuedBytes, liveness, l);
    }

    /** Returns these options with other liveness settings. */
    public Options withLiveness(Liveness l) {
      return new Options(curve, loopbackCredentials, maxMessageSize, maxQueuedBytes, l, limits);
    }
  }
}
