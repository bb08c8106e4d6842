package io.fluxdrm.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * D16's rule as {@link JobAccess} holds it (the services' EPERM answers are shown by their own
 * bad-input tests: ShellPluginBadInputTest, JobManagerBadInputTest, PmixAllocatorBadInputTest).
 */
class JobAccessTest {

  @ParameterizedTest(name = "owner {0}, caller {1}, job of {2}: {3}")
  @CsvSource({
    "false, 1000, 1000, true",
    "false, 1001, 1000, false",
    "true,  1001, 1000, true",
    "true,  0,    4294967295, true",
    "false, 4294967295, 4294967295, true",
    "false, 0, 4294967295, false"
  })
  void mayAct_ownerOrSameUser(boolean owner, long caller, long jobUser, boolean may) {
    assertThat(JobAccess.mayAct(owner, caller, jobUser)).isEqualTo(may);
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          1001       | t.realloc: user 1001 may not act on job 7 (expected: its owner)
          4294967295 | t.realloc: user 4294967295 may not act on job 7 (expected: its owner)
          """)
  void refused_epermWithTheCallerUnsigned(long caller, String message) {
    RpcException e = JobAccess.refused("t.realloc", caller, "7", "its owner");
    assertThat(e.errnum()).isEqualTo(Errno.EPERM);
    assertThat(e.getMessage()).isEqualTo(message);
    assertThat(JobAccess.refusalText("t.realloc", caller, "7")).isEqualTo(message.split(" \\(")[0]);
  }
}
