package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The standalone scheduler's memory of running jobs, and the job id notations it uses. */
class StateStoreTest {

  @Test
  void open_afterPutAndRemove_reloadsWhatIsLeft(@TempDir Path dir) {
    ResourceSet r = SchedFixture.pool(2, 4);
    StateStore s = StateStore.open(dir);
    s.put(-1L, r);
    s.put(7, r.copyRanks(IdSet.of(1)));
    s.put(9, r);
    s.remove(9);
    s.nextAllocId(42);
    StateStore again = StateStore.open(dir);
    assertThat(again.size()).isEqualTo(2);
    assertThat(again.get(-1L)).contains(r);
    assertThat(again.get(7).orElseThrow().summary()).isEqualTo("rank1/core[0-3]");
    assertThat(again.get(9)).isEmpty();
    assertThat(again.nextAllocId()).isEqualTo(42);
    assertThat(dir.resolve("ffff.ffff.ffff.ffff.R.json")).exists();
  }

  @Test
  void rstore_writeThenRead_givesTheRAndKeepsItOnDisk(@TempDir Path dir) {
    ResourceSet r = SchedFixture.pool(2, 4).copyRanks(IdSet.of(0));
    RStore s = StateStore.open(dir);
    assertThat(s.write(5, r)).isCompleted();
    assertThat(s.read(5).join()).isEqualTo(r);
    assertThat(StateStore.open(dir).read(5).join()).isEqualTo(r);
  }

  @Test
  void rstore_readOfUnknownJob_failsEnoentNamingTheJob() {
    RStore s = StateStore.inMemory();
    assertThat(s.read(1))
        .failsWithin(java.time.Duration.ZERO)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .havingCause()
        .isInstanceOfSatisfying(
            io.fluxdrm.rpc.RpcException.class,
            e -> {
              assertThat(e.errnum()).isEqualTo(io.fluxdrm.rpc.Errno.ENOENT);
              assertThat(e.getMessage()).isEqualTo("no R known for job ƒ2");
            });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          not json      | 0000.0000.0000.0001.R.json | {oops                 | state-dir: 0000.0000.0000.0001.R.json: not JSON (expected: {"id", "R"})
          no id         | 0000.0000.0000.0001.R.json | {"R":{}}              | state-dir: 0000.0000.0000.0001.R.json: (expected: {"id": integer, "R": R})
          bad next id   | next-alloc-id              | -3                    | state-dir: next-alloc-id: "-3" (expected: an unsigned integer)
          """)
  void open_badFile_namedInError(String name, String file, String content, String message)
      throws Exception {
    Path dir = Files.createTempDirectory("state");
    Files.writeString(dir.resolve(file), content);
    assertThatThrownBy(() -> StateStore.open(dir))
        .isInstanceOf(SchedException.class)
        .hasMessage(message);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          22800236544          | job.0000.0005.4f00.0000.R
          0                    | job.0000.0000.0000.0000.R
          18446744073709551615 | job.ffff.ffff.ffff.ffff.R
          """)
  void rKey_jobId_dothex(String id, String key) {
    assertThat(KvsRStore.rKey(Long.parseUnsignedLong(id))).isEqualTo(key);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0   | ƒ1
          1   | ƒ2
          57  | ƒz
          58  | ƒ21
          """)
  void f58_jobId_base58(long id, String f58) {
    assertThat(io.fluxdrm.rpc.JobId.f58(id)).isEqualTo(f58);
  }
}
