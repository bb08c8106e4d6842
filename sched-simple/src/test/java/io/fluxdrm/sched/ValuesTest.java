package io.fluxdrm.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.protocol.AllocResponseType;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rpc.Errno;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The core's value types: queue depth, options, resource requests, response type codes. */
class ValuesTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          8            | limited   | 8
          limited=1    | limited   | 1
          2147483647   | limited   | 2147483647
          unlimited    | unlimited | unlimited
          """)
  void queueDepth_parse_valid(String text, String mode, String shown) {
    QueueDepth q = QueueDepth.parse(text);
    assertThat(q.mode()).isEqualTo(mode);
    assertThat(q.toString()).isEqualTo(shown);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          foobar      | queue-depth: "foobar" is not a number (expected: N >= 1, limited=N or unlimited)
          limited=-1  | queue-depth: limited=-1 (expected: 1 to 2147483647 or unlimited)
          -5          | queue-depth: -5 (expected: 1 to 2147483647 or unlimited)
          0           | queue-depth: 0 (expected: 1 to 2147483647 or unlimited)
          2147483648  | queue-depth: 2147483648 (expected: 1 to 2147483647 or unlimited)
          """)
  void queueDepth_parse_invalidRejected(String text, String message) {
    assertThatThrownBy(() -> QueueDepth.parse(text))
        .isInstanceOf(SchedException.class)
        .hasMessage(message);
  }

  @Test
  void queueDepth_default_limitedEight() {
    assertThat(SchedulerOptions.defaults().queueDepth()).isEqualTo(QueueDepth.limited(8));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          zero slot size         | 0 |  1 | 0 | 0    | request: slot size 0 (expected: >= 1)
          negative gpus          | 1 | -1 | 0 | 0    | request: gpus per slot -1 (expected: >= 0)
          negative duration      | 1 |  0 | 0 | -5   | request: duration -5.0 (expected: finite, >= 0)
          infinite duration      | 1 |  0 | 0 | 1e400 | request: duration Infinity (expected: finite, >= 0)
          slot range with nodes  | 1 |  0 | 2 | 0    | request: slots per node 1-2 is a range (expected: one count when a node count is given)
          """)
  void resourceRequest_invalid_rejectedWithLocation(
      String what, int slotSize, int gpus, int slotMax, double duration, String message) {
    assertThatThrownBy(
            () ->
                new ResourceRequest(
                    slotMax > 0 ? ResourceRequest.Count.exactly(1) : null,
                    slotMax > 0
                        ? new ResourceRequest.Count(1, slotMax)
                        : ResourceRequest.Count.exactly(1),
                    slotSize,
                    gpus,
                    false,
                    duration,
                    null))
        .isInstanceOf(SchedException.class)
        .hasMessage(message);
  }

  @Test
  void resourceRequest_missingSlots_rejected() {
    assertThatThrownBy(() -> new ResourceRequest(null, null, 1, 0, false, 0, null))
        .isInstanceOf(SchedException.class)
        .hasMessage("request: slot count is missing (expected: a count >= 1)");
  }

  @ParameterizedTest(name = "{0}-{1}")
  @CsvSource({"0, 1, count: min 0 (expected: >= 1)", "3, 2, count: max 2 is less than min 3"})
  void count_invalid_rejected(int min, int max, String message) {
    assertThatThrownBy(() -> new ResourceRequest.Count(min, max))
        .isInstanceOf(SchedException.class)
        .hasMessage(message);
  }

  @Test
  void count_toString_showsRangeOrOpenEnd() {
    assertThat(ResourceRequest.Count.exactly(2)).hasToString("2");
    assertThat(new ResourceRequest.Count(2, 4)).hasToString("2-4");
    assertThat(ResourceRequest.Count.atLeast(2)).hasToString("2+");
  }

  @Test
  void options_firstAllocIdZero_rejected() {
    assertThatThrownBy(() -> SchedulerOptions.defaults().withFirstAllocId(0))
        .isInstanceOf(SchedException.class)
        .hasMessage("options: first alloc id 0 (expected: >= 1)");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"SUCCESS, 0, 0", "DENY, 2, 1", "CANCEL, 3, 2"})
  void responseTypes_rfc27AndRfc51_differentNumbers(String name, int rfc27, int rfc51) {
    assertThat(AllocResponseType.valueOf(name).code()).isEqualTo(rfc27);
    assertThat(ReallocResponseType.valueOf(name).code()).isEqualTo(rfc51);
  }

  @Test
  void responseTypes_onlyInOneProtocol_codes() {
    assertThat(AllocResponseType.ANNOTATE.code()).isEqualTo(1);
    assertThat(ReallocResponseType.UNSUPPORTED.code()).isEqualTo(3);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"EPERM, 1", "ENOENT, 2", "EINVAL, 22", "EPROTO, 71", "EOVERFLOW, 75"})
  void errno_theSchedulersCodes_linuxValuesAndNames(String name, int code) throws Exception {
    assertThat(Errno.class.getField(name).getInt(null)).isEqualTo(code);
    assertThat(Errno.name(code)).isEqualTo(name);
  }
}
