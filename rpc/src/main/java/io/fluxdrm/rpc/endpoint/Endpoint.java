package io.fluxdrm.rpc.endpoint;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a fluxdrm server listens or a client connects, as a command names it (decision D534).
 * Parsed once here: the commands say which forms they accept and word their own usage errors.
 */
public sealed interface Endpoint {
  /** {@code tcp://HOST:PORT}: a host name, an IPv4 address, {@code *} or a bracketed IPv6 one. */
  Pattern TCP =
      Pattern.compile("tcp://([A-Za-z0-9][A-Za-z0-9.-]*|\\*|\\[[0-9A-Fa-f:.]+\\]):(\\d{1,5})");

  /** Loopback hosts: what a server without CURVE may be reached at. */
  Pattern LOOPBACK = Pattern.compile("127(\\.\\d{1,3}){3}|localhost|\\[::1\\]");

  /** The form as the user writes it. */
  String text();

  /** The scheme: {@code unix}, {@code local} or {@code tcp}. */
  String scheme();

  /**
   * The URI a connector opens: {@code local://DIR/local} for a hub directory, the others as they
   * are.
   */
  String connectorUri();

  /**
   * {@code unix:DIR}: the directory of a fluxdrm hub; its connector socket is {@code DIR/local}.
   *
   * @param dir the directory
   */
  record HubDir(Path dir) implements Endpoint {
    /** Checks the field. */
    public HubDir {
      Objects.requireNonNull(dir, "dir");
    }

    @Override
    public String text() {
      return "unix:" + dir;
    }

    @Override
    public String scheme() {
      return "unix";
    }

    @Override
    public String connectorUri() {
      return "local://" + dir.resolve("local");
    }
  }

  /**
   * {@code local://PATH}: a connector socket, a fluxdrm hub's or a flux-core broker's.
   *
   * @param socket the socket's path
   */
  record Socket(Path socket) implements Endpoint {
    /** Checks the field. */
    public Socket {
      Objects.requireNonNull(socket, "socket");
    }

    @Override
    public String text() {
      return "local://" + socket;
    }

    @Override
    public String scheme() {
      return "local";
    }

    @Override
    public String connectorUri() {
      return text();
    }
  }

  /**
   * {@code tcp://HOST:PORT}: a ZeroMQ endpoint.
   *
   * @param host the host as written
   * @param port the port, 0 to 65535
   */
  record Tcp(String host, int port) implements Endpoint {
    /** Checks the fields. */
    public Tcp {
      Objects.requireNonNull(host, "host");
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port " + port + " (expected: 0 to 65535)");
      }
    }

    /** Whether the host is a loopback address. */
    public boolean loopback() {
      return LOOPBACK.matcher(host).matches();
    }

    @Override
    public String text() {
      return "tcp://" + host + ":" + port;
    }

    @Override
    public String scheme() {
      return "tcp";
    }

    @Override
    public String connectorUri() {
      return text();
    }
  }

  /**
   * Reads one of the three forms.
   *
   * @param text what the user wrote; null is no endpoint
   * @return the endpoint, or empty when {@code text} is none of the forms (an unknown scheme, an
   *     empty path, a malformed host or port)
   */
  static Optional<Endpoint> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    if (text.startsWith("unix:") && text.length() > "unix:".length()) {
      return Optional.of(new HubDir(Path.of(text.substring("unix:".length()))));
    }
    if (text.startsWith("local://") && text.length() > "local://".length()) {
      return Optional.of(new Socket(Path.of(text.substring("local://".length()))));
    }
    Matcher m = TCP.matcher(text);
    if (m.matches()) {
      int port = Integer.parseInt(m.group(2));
      return port > 65535 ? Optional.empty() : Optional.of(new Tcp(m.group(1), port));
    }
    return Optional.empty();
  }

  /**
   * Whether {@code text} names a ZeroMQ endpoint ({@code tcp://...}, well formed or not): for a
   * command that hands the text on to a ZeroMQ listener, which words its own errors.
   *
   * @param text what the user wrote
   * @return whether it has the tcp scheme
   */
  static boolean isTcp(String text) {
    return text != null && text.startsWith("tcp://");
  }
}
