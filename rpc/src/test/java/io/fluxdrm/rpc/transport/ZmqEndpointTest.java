package io.fluxdrm.rpc.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Parsing ZeroMQ endpoints for the ZMTP engine: tcp only, with clear refusals. */
class ZmqEndpointTest {

  @ParameterizedTest(name = "{0} bind={1} -> {2} {3} -> {4}")
  @CsvSource({
    "tcp://127.0.0.1:5555, false, 127.0.0.1, 5555, tcp://127.0.0.1:5555",
    "tcp://127.0.0.1:*, true, 127.0.0.1, 0, tcp://127.0.0.1:0",
    "tcp://[::1]:7, false, ::1, 7, tcp://[::1]:7",
    "tcp://localhost:65535, false, localhost, 65535, tcp://localhost:65535",
    "tcp://*:5555, true, 0.0.0.0, 5555, tcp://0.0.0.0:5555",
  })
  void parse_tcpEndpoint_hostAndPort(
      String endpoint, boolean bind, String host, int port, String text) {
    ZmqEndpoint e = ZmqEndpoint.parse(endpoint, bind);
    assertThat(e).isEqualTo(new ZmqEndpoint(host, port));
    assertThat(e.withPort(port)).isEqualTo(text);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "ipc:///tmp/hub | true | ipc:///tmp/hub: ipc:// is not served by fluxdrm's ZeroMQ engine"
            + " (expected: tcp://HOST:PORT; for a Unix socket use local://PATH)",
        "inproc://x | false | inproc://x: inproc:// is not served by fluxdrm's ZeroMQ engine"
            + " (expected: tcp://HOST:PORT; for a Unix socket use local://PATH)",
        "udp://127.0.0.1:5 | false | udp://127.0.0.1:5: unknown transport (expected:"
            + " tcp://HOST:PORT)",
        "tcp://127.0.0.1 | false | tcp://127.0.0.1: no port (expected: tcp://HOST:PORT)",
        "tcp://127.0.0.1:* | false | tcp://127.0.0.1:*: port \"*\" (expected: 1 to 65535)",
        "tcp://127.0.0.1:0 | true | tcp://127.0.0.1:0: port \"0\" (expected: 1 to 65535 or *)",
        "tcp://127.0.0.1:70000 | false | tcp://127.0.0.1:70000: port \"70000\" (expected: 1 to"
            + " 65535)",
        "tcp://127.0.0.1:+5 | false | tcp://127.0.0.1:+5: port \"+5\" (expected: 1 to 65535)",
        "tcp://::1:5 | false | tcp://::1:5: IPv6 address without brackets (expected:"
            + " tcp://[ADDRESS]:PORT)",
        "tcp://[::1:5 | false | tcp://[::1:5: unclosed IPv6 bracket (expected:"
            + " tcp://[ADDRESS]:PORT)",
        "tcp://*:5 | false | tcp://*:5: host * (expected: an address or host name to connect"
            + " to)",
      })
  void parse_badEndpoint_einvalWithReason(String endpoint, boolean bind, String why) {
    assertThatThrownBy(() -> ZmqEndpoint.parse(endpoint, bind))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EINVAL))
        .hasMessage(why);
  }
}
