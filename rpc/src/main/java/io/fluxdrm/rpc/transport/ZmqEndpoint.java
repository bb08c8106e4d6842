package io.fluxdrm.rpc.transport;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;

/**
 * A ZeroMQ TCP endpoint, {@code tcp://HOST:PORT}: an IPv4 literal, a bracketed IPv6 literal or a
 * host name ({@code *} for every interface, when binding), and a port ({@code *} for any, when
 * binding). The {@code ipc://} and {@code inproc://} transports are not served by fluxdrm's ZMTP
 * engine.
 *
 * @param host the host as written (IPv6 without brackets)
 * @param port the port; 0 for {@code *}
 */
public record ZmqEndpoint(String host, int port) {
  /**
   * Parses an endpoint.
   *
   * @param anyPort whether {@code *} is allowed as the port (binding)
   * @throws RpcException EINVAL with the reason
   */
  public static ZmqEndpoint parse(String endpoint, boolean anyPort) {
    if (endpoint.startsWith("ipc://") || endpoint.startsWith("inproc://")) {
      throw new RpcException(
          Errno.EINVAL,
          endpoint
              + ": "
              + endpoint.substring(0, endpoint.indexOf(':'))
              + ":// is not served by fluxdrm's ZeroMQ engine (expected: tcp://HOST:PORT; for a"
              + " Unix socket use local://PATH)");
    }
    if (!endpoint.startsWith("tcp://")) {
      throw new RpcException(
          Errno.EINVAL, endpoint + ": unknown transport (expected: tcp://HOST:PORT)");
    }
    String rest = endpoint.substring("tcp://".length());
    int colon = rest.lastIndexOf(':');
    if (colon <= 0) {
      throw new RpcException(Errno.EINVAL, endpoint + ": no port (expected: tcp://HOST:PORT)");
    }
    String host = rest.substring(0, colon);
    String portText = rest.substring(colon + 1);
    if (host.startsWith("[")) {
      if (!host.endsWith("]") || host.length() < 3) {
        throw new RpcException(
            Errno.EINVAL, endpoint + ": unclosed IPv6 bracket (expected: tcp://[ADDRESS]:PORT)");
      }
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new RpcException(
          Errno.EINVAL,
          endpoint + ": IPv6 address without brackets (expected: tcp://[ADDRESS]:PORT)");
    }
    if (host.equals("*")) {
      if (!anyPort) {
        throw new RpcException(
            Errno.EINVAL, endpoint + ": host * (expected: an address or host name to connect to)");
      }
      host = "0.0.0.0";
    }
    int port;
    if (portText.equals("*") && anyPort) {
      port = 0;
    } else {
      try {
        port = Integer.parseInt(portText);
      } catch (NumberFormatException e) {
        port = -1;
      }
      if (port < 1 || port > 65535 || !portText.matches("[0-9]+")) {
        throw new RpcException(
            Errno.EINVAL,
            endpoint
                + ": port \""
                + portText
                + "\" (expected: 1 to 65535"
                + (anyPort ? " or *" : "")
                + ")");
      }
    }
    return new ZmqEndpoint(host, port);
  }

  /** Returns the endpoint text for a port (IPv6 hosts in brackets). */
  public String withPort(int p) {
    return "tcp://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + p;
  }
}
