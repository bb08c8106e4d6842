package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.Decision;
import io.fluxdrm.sched.ResourceRequest;
import io.fluxdrm.sched.SchedEvent;
import io.fluxdrm.sched.SchedulerCore;
import io.fluxdrm.sched.SchedulerOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A final {@code sched.free} that names exactly the R a SUCCESS carried, as flux-core's job manager
 * sends it, is read without the schema check and the parse (D571); every other payload takes the
 * full path, whose checks {@code SchedServiceTest} and the payload corpus cover.
 */
class SentGrantsTest {
  private final SentGrants grants = new SentGrants();
  private Decision.AllocSuccess granted;
  private ObjectNode sentR;

  @BeforeEach
  void grantOne() {
    SchedulerCore core = SchedulerCore.of(SchedFixture.pool(4, 4), SchedulerOptions.defaults());
    granted =
        core
            .handle(new SchedEvent.Alloc(7, 16, 1000, 1.0, ResourceRequest.slots(2, 1)), 1.5e9)
            .stream()
            .filter(Decision.AllocSuccess.class::isInstance)
            .map(Decision.AllocSuccess.class::cast)
            .findFirst()
            .orElseThrow();
    ObjectNode answer = Payloads.allocSuccess(granted);
    grants.sent(7, answer.get("R"), granted.r());
    sentR = (ObjectNode) wire(answer).get("R");
  }

  /** {@code o} as the peer reads it back from the wire's text. */
  private static ObjectNode wire(ObjectNode o) {
    try {
      return (ObjectNode) Json.mapper().readTree(Json.mapper().writeValueAsBytes(o));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ObjectNode free(Object id, ObjectNode r, Object fin) {
    ObjectNode p = Json.object();
    if (id instanceof Long l) {
      p.put("id", l);
    } else if (id != null) {
      p.put("id", id.toString());
    }
    p.set("R", r);
    if (fin instanceof Boolean b) {
      p.put("final", b);
    } else if (fin != null) {
      p.put("final", fin.toString());
    }
    return p;
  }

  @Test
  void theGrantedR_asSent_readsBackAsTheGrant_andAFinalFreeForgetsIt() {
    assertThat(ResourceSet.fromJson(sentR)).as("what the full path reads").isEqualTo(granted.r());
    assertThat(grants.recognize(free(7L, sentR, false))).isSameAs(granted.r());
    assertThat(grants.recognize(free(7L, sentR, null))).isSameAs(granted.r());
    assertThat(grants.size()).as("a partial free keeps it").isEqualTo(1);
    assertThat(grants.recognize(free(7L, sentR, true))).isSameAs(granted.r());
    assertThat(grants.size()).isZero();
    assertThat(grants.recognize(free(7L, sentR, true))).as("freed already").isNull();
  }

  @Test
  void anythingElse_takesTheFullPath() {
    ObjectNode otherStart = sentR.deepCopy();
    ((ObjectNode) otherStart.get("execution")).put("starttime", 1.0);
    ObjectNode intExpiration = sentR.deepCopy();
    ((ObjectNode) intExpiration.get("execution")).put("expiration", 0);
    assertThat(grants.recognize(free(8L, sentR, true))).as("another job").isNull();
    assertThat(grants.recognize(free(7L, otherStart, true))).as("another R").isNull();
    assertThat(grants.recognize(free(7L, intExpiration, true)))
        .as("the same numbers written otherwise")
        .isNull();
    assertThat(grants.recognize(free("7", sentR, true))).as("an id that is a string").isNull();
    assertThat(grants.recognize(free(null, sentR, true))).as("no id").isNull();
    assertThat(grants.recognize(free(7L, sentR, "yes"))).as("final not a boolean").isNull();
    assertThat(grants.recognize(free(-7L, sentR, true))).as("a negative id").isNull();
    assertThat(grants.size())
        .as("nothing forgotten by a payload it did not recognize")
        .isEqualTo(1);
    grants.clear();
    assertThat(grants.recognize(free(7L, sentR, true))).as("after a hello").isNull();
  }
}
