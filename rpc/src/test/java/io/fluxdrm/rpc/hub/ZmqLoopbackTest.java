package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which ZeroMQ endpoints count as loopback, where a hub may listen without CURVE; {@code ipc://}
 * and {@code inproc://} are not served at all (see {@code
 * io.fluxdrm.rpc.transport.ZmqEndpointTest}).
 */
class ZmqLoopbackTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "tcp://127.0.0.1:5555, true",
    "tcp://127.0.0.1:*, true",
    "tcp://127.1.2.3:5555, true",
    "tcp://localhost:5555, true",
    "tcp://[::1]:5555, true",
    "ipc:///tmp/x, false",
    "inproc://x, false",
    "tcp://127.example.com:5555, false",
    "tcp://127.0.0.1.example.com:5555, false",
    "tcp://127.0.0.256:5555, false",
    "tcp://0.0.0.0:5555, false",
    "tcp://*:5555, false",
    "tcp://[::]:5555, false",
    "tcp://192.0.2.1:5555, false",
    "tcp://localhost.example.com:5555, false",
    "udp://127.0.0.1:5555, false",
  })
  void isLoopback_endpoint_onlyLoopbackLiterals(String endpoint, boolean loopback) {
    assertThat(ZmqHubListener.isLoopback(endpoint)).isEqualTo(loopback);
  }
}
