package io.fluxdrm.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reading eventlogs back: what recovery rebuilds, and every kind of bad line, located. */
class EventlogTest {
  @TempDir Path dir;

  private static final String SUBMIT =
      "{\"timestamp\":1.5,\"name\":\"submit\",\"context\":{\"userid\":1000}}\n";
  private static final String ALLOC =
      "{\"timestamp\":2,\"name\":\"alloc\",\"context\":{\"R\":"
          + JmFixture.pool(2, 2).toString()
          + "}}\n";

  @Test
  void recover_growShrinkRelease_rIsInitialUnionGrantsMinusReleases() throws Exception {
    ResourceSet pool = JmFixture.pool(4, 2);
    String add = pool.copyRanks(io.fluxdrm.rset.IdSet.of(2, 3)).toString();
    String sub = pool.copyRanks(io.fluxdrm.rset.IdSet.of(3)).toString();
    Files.writeString(
        dir.resolve("7.eventlog"),
        SUBMIT
            + ALLOC
            + "{\"timestamp\":3,\"name\":\"resource-update\",\"context\":{\"R_delta_add\":"
            + add
            + "}}\n"
            + "{\"timestamp\":4,\"name\":\"resource-update\",\"context\":{\"R_delta_sub\":"
            + sub
            + "}}\n"
            + "{\"timestamp\":5,\"name\":\"release\",\"context\":{\"ranks\":\"3\",\"final\":false}}\n"
            + "{\"timestamp\":6,\"name\":\"resource-update\",\"con");
    JobManager jm = JobManager.recover(dir, () -> 10);
    assertThat(jm.jobR(7).orElseThrow().summary()).isEqualTo("rank[0-2]/core[0-1]");
    assertThat(jm.releasing(7).orElseThrow().isEmpty()).isTrue();
  }

  @Test
  void recover_freedJob_holdsNothing() throws Exception {
    Files.writeString(
        dir.resolve("3.eventlog"),
        SUBMIT
            + ALLOC
            + "{\"timestamp\":5,\"name\":\"release\",\"context\":{\"ranks\":\"0-1\",\"final\":true}}\n"
            + "{\"timestamp\":5,\"name\":\"free\"}\n");
    assertThat(JobManager.recover(dir, () -> 10).jobR(3)).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          notJson          | {"timestamp":                                           | 5.eventlog:3: not JSON (expected: one JSON object per line)
          notObject        | [1]                                                     | 5.eventlog:3: not an object (expected: one JSON object per line)
          zeroTimestamp    | {"timestamp":0,"name":"free"}                           | 5.eventlog:3: /timestamp: 0 (expected: a number of seconds > 0)
          noName           | {"timestamp":3}                                         | 5.eventlog:3: /name: null (expected: an event name)
          contextNotObject | {"timestamp":3,"name":"free","context":[]}              | 5.eventlog:3: /context: [] (expected: an object)
          releaseNoFinal   | {"timestamp":3,"name":"release","context":{"ranks":"0"}} | 5.eventlog:3: /context/final: null (expected: bool)
          releaseBadRanks  | {"timestamp":3,"name":"release","context":{"ranks":"x","final":false}} | 5.eventlog:3: /context/ranks:
          secondAlloc      | {"timestamp":3,"name":"alloc","context":{"R":{"version":1,"execution":{"R_lite":[]}}}} | 5.eventlog:3: second alloc (expected: one per job)
          updateBadR       | {"timestamp":3,"name":"resource-update","context":{"R_delta_add":{"version":2}}} | 5.eventlog:3: /context/R_delta_add: R: /version: invalid version=2
          """)
  void recover_badLine_refusedWithPlace(String name, String line, String message) throws Exception {
    Files.writeString(dir.resolve("5.eventlog"), SUBMIT + ALLOC + line + "\n");
    assertThatThrownBy(() -> JobManager.recover(dir, () -> 10))
        .isInstanceOf(JobManagerException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void recover_fileNotNamedAfterJob_refused() throws Exception {
    Files.writeString(dir.resolve("abc.eventlog"), SUBMIT);
    assertThatThrownBy(() -> JobManager.recover(dir, () -> 10))
        .isInstanceOf(JobManagerException.class)
        .hasMessage("abc.eventlog: not a job id (expected: <unsigned id>.eventlog)");
  }

  @Test
  void recover_updateBeforeAlloc_refused() throws Exception {
    Files.writeString(
        dir.resolve("4.eventlog"),
        SUBMIT
            + "{\"timestamp\":3,\"name\":\"release\",\"context\":{\"ranks\":\"0\",\"final\":false}}\n");
    assertThatThrownBy(() -> JobManager.recover(dir, () -> 10))
        .isInstanceOf(JobManagerException.class)
        .hasMessage("4.eventlog:2: release before alloc (expected: alloc first)");
  }
}
