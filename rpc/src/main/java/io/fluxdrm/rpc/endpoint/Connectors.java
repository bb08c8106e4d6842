package io.fluxdrm.rpc.endpoint;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transport.ZmqClientKeys;
import java.time.Duration;

/**
 * Opens a handle on an {@link Endpoint}, the connector picked by its scheme (decision D534): the
 * local connector for {@code unix:} and {@code local://}, fluxdrm's ZeroMQ connector for {@code
 * tcp://}. Code outside {@code rpc} connects through here, never through {@link FluxHandle}'s
 * connector methods (a layering rule checks it).
 */
public final class Connectors {
  private Connectors() {}

  /** What a ZeroMQ connector does when no server is there. */
  public enum Absent {
    /** Fail at once with one clear error (a client command, D480). */
    FAIL,
    /** Keep reconnecting, as a ZeroMQ DEALER does (a server's link to its peer, D173). */
    RETRY
  }

  /**
   * Connects to {@code e}.
   *
   * @param reactor the loop the handle runs on
   * @param e the endpoint
   * @param timeout how long a local connect may take
   * @param keys CURVE client keys for {@code tcp://}, or null for none
   * @param absent for {@code tcp://}: fail at once or keep reconnecting when no server is there; a
   *     local connect fails at once either way
   * @return the handle
   * @throws RpcException when the connection cannot be made
   */
  public static FluxHandle open(
      Reactor reactor, Endpoint e, Duration timeout, ZmqClientKeys keys, Absent absent) {
    if (e instanceof Endpoint.Tcp t) {
      return absent == Absent.FAIL
          ? FluxHandle.connectZmqFailFast(reactor, t.text(), keys)
          : FluxHandle.connectZmq(reactor, t.text(), keys);
    }
    // unix:DIR and local://PATH: the local connector, on the socket's path
    return FluxHandle.connect(reactor, e.connectorUri(), timeout);
  }

  /**
   * Connects to one of the three forms.
   *
   * @throws RpcException EINVAL when {@code uri} is none of them; as the connector otherwise
   */
  public static FluxHandle open(
      Reactor reactor, String uri, Duration timeout, ZmqClientKeys keys, Absent absent) {
    Endpoint e =
        Endpoint.parse(uri)
            .orElseThrow(
                () ->
                    new RpcException(
                        Errno.EINVAL,
                        "uri \""
                            + uri
                            + "\": (expected: unix:DIR, local://PATH or tcp://HOST:PORT)"));
    return open(reactor, e, timeout, keys, absent);
  }

  /**
   * Connects to a local connector only ({@code local://PATH}, {@code unix:DIR}): a flux-core broker
   * is reached through its local connector, never over fluxdrm's ZeroMQ transport.
   *
   * @throws RpcException EINVAL when {@code uri} is not local; as {@link FluxHandle#connect}
   *     otherwise
   */
  public static FluxHandle openLocal(Reactor reactor, String uri, Duration timeout) {
    return FluxHandle.connect(reactor, local(uri).connectorUri(), timeout);
  }

  /**
   * Connects to a local connector socket that may not be there yet (a server starting), waiting up
   * to {@code timeout} for it to appear.
   *
   * @throws RpcException EINVAL when {@code uri} is not local; ETIMEDOUT when nothing serves there
   *     in time
   */
  public static FluxHandle openWhenUp(Reactor reactor, String uri, Duration timeout) {
    return FluxHandle.connectWhenUp(reactor, local(uri).connectorUri(), timeout);
  }

  private static Endpoint local(String uri) {
    Endpoint e = Endpoint.parse(uri).orElse(null);
    if (e == null || e instanceof Endpoint.Tcp) {
      throw new RpcException(Errno.EINVAL, "uri \"" + uri + "\": (expected: local://PATH)");
    }
    return e;
  }
}
