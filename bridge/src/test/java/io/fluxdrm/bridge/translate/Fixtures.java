package io.fluxdrm.bridge.translate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxdrm.jobspec.JobspecValidator;
import io.fluxdrm.jobspec.Level;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.schemas.Schemas;
import java.util.List;
import java.util.Map;

/** Shared test values: a job on n[1-4] (ranks 0-3, 8 cores each) and assertions. */
final class Fixtures {
  private Fixtures() {}

  static final ObjectMapper M = new ObjectMapper();

  static final long JOB = 42;

  static ResourceSet r(String ranks, String cores, String hosts) {
    return ResourceSet.of(
        IdSet.parse(ranks), IdSet.parse(cores), IdSet.empty(), Hostlist.parse(hosts));
  }

  static final ResourceSet JOB_R = r("0-3", "0-7", "n[1-4]");

  /** Reservation "7" holds ranks 2-3 (n3, n4). */
  static final JobView VIEW =
      new JobView(JOB, JOB_R, null, Map.of("7", JOB_R.copyRanks(IdSet.parse("2-3"))));

  static JobView own(String allocId) {
    return new JobView(JOB, JOB_R, allocId, VIEW.reservations());
  }

  static JsonNode json(String s) {
    try {
      return M.readTree(s);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** The realloc, after checking it is V1-valid and schema-valid. */
  static Translation.Realloc realloc(Translation t) {
    assertThat(t).isInstanceOf(Translation.Realloc.class);
    Translation.Realloc r = (Translation.Realloc) t;
    JsonNode p = r.payload();
    assertThat(Schemas.validate("sched.realloc-request", p)).isEmpty();
    for (String k : List.of("spec_add", "spec_sub")) {
      if (p.has(k)) {
        assertThat(JobspecValidator.validate(p.get(k), Level.V1)).as(k).isEmpty();
      }
    }
    return r;
  }

  static Translation.Refused refused(Translation t) {
    assertThat(t).isInstanceOf(Translation.Refused.class);
    return (Translation.Refused) t;
  }

  static Info info(String key, Object value) {
    return Info.of(key, value);
  }
}
