package io.fluxdrm.rpc.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link ServiceRequest#requireOnlyKeys}: the payload key check every service shares. */
class ServiceRequestKeysTest {
  private static final Set<String> ALLOWED = Set.of("spec_sub", "R", "spec_add");

  private static ObjectNode parse(String json) throws Exception {
    return (ObjectNode) Json.mapper().readTree(json);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {}
          {"R":{}}
          {"spec_add":{},"spec_sub":{},"R":{}}
          """)
  void requireOnlyKeys_onlyAllowedKeys_passes(String payload) throws Exception {
    ObjectNode p = parse(payload);
    assertThatCode(() -> ServiceRequest.requireOnlyKeys("t.m", p, ALLOWED))
        .doesNotThrowAnyException();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {"id":5}                  | t.m: /id: unknown key (expected: one of [R, spec_add, spec_sub])
          {"R":{},"r":1,"x":2}      | t.m: /r: unknown key (expected: one of [R, spec_add, spec_sub])
          {"spec_add":{},"":0}      | t.m: /: unknown key (expected: one of [R, spec_add, spec_sub])
          """)
  void requireOnlyKeys_unknownKey_eprotoNamingTheFirstOne(String payload, String text)
      throws Exception {
    ObjectNode p = parse(payload);
    RpcException e =
        catchThrowableOfType(
            RpcException.class, () -> ServiceRequest.requireOnlyKeys("t.m", p, ALLOWED));
    assertThat(e.errnum()).isEqualTo(Errno.EPROTO);
    assertThat(e.getMessage()).isEqualTo(text);
  }
}
