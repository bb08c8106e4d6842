package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.Decision;
import io.fluxdrm.sched.ResourceRequest;
import io.fluxdrm.sched.SchedEvent;
import io.fluxdrm.sched.SchedulerCore;
import io.fluxdrm.sched.SchedulerOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A final {@code sched.free} that names exactly the R a SUCCESS carried, as flux-core's job manager
 * sends it, is compared as bytes without the schema check and the tree (D571, D584); every other
 * payload takes the full path, whose checks {@code SchedServiceTest} and the payload corpus cover.
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
    grants.sent(7, Json.compact(answer.get("R")), granted.r());
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

  private static ObjectNode readTree(String text) {
    try {
      return (ObjectNode) Json.mapper().readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The {@code sched.free} request carrying {@code text} and its NUL. */
  private static Message request(String text) {
    return Message.request("sched.free", Json.text(text));
  }

  private SchedEvent.Free recognize(ObjectNode payload) {
    return grants.recognize(Message.request("sched.free", payload));
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
    assertThat(recognize(free(7L, sentR, false)))
        .isEqualTo(new SchedEvent.Free(7, granted.r(), false));
    assertThat(recognize(free(7L, sentR, null)).r()).isSameAs(granted.r());
    assertThat(grants.size()).as("a partial free keeps it").isEqualTo(1);
    assertThat(recognize(free(7L, sentR, true)))
        .isEqualTo(new SchedEvent.Free(7, granted.r(), true));
    assertThat(grants.size()).isZero();
    assertThat(recognize(free(7L, sentR, true))).as("freed already").isNull();
  }

  /**
   * A final free as flux-core 0.88's job manager sent it (captured on the local connector): the R
   * of the commit, its start time written with 17 digits.
   */
  @Test
  void aFreeAsFluxCoresJobManagerSendsIt_isRecognized() {
    String sent =
        "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\",\"children\":{\"core\":\"0-3\"}}],"
            + "\"nslots\":1,\"starttime\":1796617984.34,\"expiration\":0.0,\"nodelist\":[\"fake0\"]}}";
    ResourceSet r = ResourceSet.fromJson(readTree(sent));
    grants.sent(36540776448L, sent.getBytes(StandardCharsets.US_ASCII), r);
    String free =
        "{\"id\":36540776448,\"R\":{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\","
            + "\"children\":{\"core\":\"0-3\"}}],\"nslots\":1,\"starttime\":1796617984.3399999,"
            + "\"expiration\":0.0,\"nodelist\":[\"fake0\"]}},\"final\":true}";
    assertThat(grants.recognize(request(free)))
        .isEqualTo(new SchedEvent.Free(36540776448L, r, true));
  }

  @Test
  void fractionsWrittenWithMoreDigits_asJanssonWritesThem_areRecognized() {
    String r = new String(Json.compact(sentR), StandardCharsets.UTF_8);
    double start = sentR.get("execution").get("starttime").doubleValue();
    String longer = r.replace(Double.toString(start), String.format(Locale.ROOT, "%.16e", start));
    assertThat(longer).isNotEqualTo(r);
    assertThat(grants.recognize(request("{\"id\":7,\"R\":" + longer + ",\"final\":true}")))
        .isEqualTo(new SchedEvent.Free(7, granted.r(), true));
  }

  @Test
  void theBytesOfStrings_andTheTypesOfNumbers_mustBeTheSame() {
    ResourceSet r = granted.r();
    grants.sent(
        9,
        "{\"a\":\"n-1.5\",\"b\":[1,0.5,-0],\"c\":\"x,0\"}".getBytes(StandardCharsets.US_ASCII),
        r);
    assertThat(
            grants.recognize(
                request("{\"id\":9,\"R\":{\"a\":\"n-1.5\",\"b\":[1,0.50,0],\"c\":\"x,0\"}}")))
        .as("the same numbers written otherwise, outside strings")
        .isEqualTo(new SchedEvent.Free(9, r, false));
    assertThat(
            grants.recognize(
                request("{\"id\":9,\"R\":{\"a\":\"n-1.50\",\"b\":[1,0.5,-0],\"c\":\"x,0\"}}")))
        .as("a number-like text inside a string")
        .isNull();
    assertThat(
            grants.recognize(
                request("{\"id\":9,\"R\":{\"a\":\"n-1.5\",\"b\":[1,0.5,-0],\"c\":\"x,-0\"}}")))
        .as("a minus zero inside a string")
        .isNull();
    assertThat(
            grants.recognize(
                request("{\"id\":9,\"R\":{\"a\":\"n-1.5\",\"b\":[1.0,0.5,-0],\"c\":\"x,0\"}}")))
        .as("an integer written as a fraction")
        .isNull();
    assertThat(
            grants.recognize(
                request("{\"id\":9,\"R\":{\"a\":\"n-1.5\",\"b\":[1,+0.5,-0],\"c\":\"x,0\"}}")))
        .as("not JSON")
        .isNull();
    assertThat(grants.recognize(request("{\"id\":9,\"R\":{\"a\":\"n-1.5\",\"b\":[1,0.5,-0]")))
        .as("cut short")
        .isNull();
  }

  @Test
  void anythingElse_takesTheFullPath() {
    ObjectNode otherStart = sentR.deepCopy();
    ((ObjectNode) otherStart.get("execution")).put("starttime", 1.0);
    ObjectNode intExpiration = sentR.deepCopy();
    ((ObjectNode) intExpiration.get("execution")).put("expiration", 0);
    List<String> keys = new ArrayList<>();
    sentR.fieldNames().forEachRemaining(keys::add);
    ObjectNode otherOrder = Json.object();
    for (int i = keys.size() - 1; i >= 0; i--) {
      otherOrder.set(keys.get(i), sentR.get(keys.get(i)));
    }
    String r = new String(Json.compact(sentR), StandardCharsets.UTF_8);
    assertThat(recognize(free(8L, sentR, true))).as("another job").isNull();
    assertThat(recognize(free(7L, otherStart, true))).as("another R").isNull();
    assertThat(recognize(free(7L, intExpiration, true)))
        .as("the same numbers written otherwise")
        .isNull();
    assertThat(recognize(free(7L, otherOrder, true))).as("R's keys in another order").isNull();
    assertThat(recognize(free("7", sentR, true))).as("an id that is a string").isNull();
    assertThat(recognize(free(null, sentR, true))).as("no id").isNull();
    assertThat(recognize(free(7L, sentR, "yes"))).as("final not a boolean").isNull();
    assertThat(recognize(free(-7L, sentR, true))).as("a negative id").isNull();
    assertThat(recognize(free(7L, sentR, true).put("extra", 1))).as("another key").isNull();
    assertThat(grants.recognize(request("{\"R\":" + r + ",\"id\":7,\"final\":true}")))
        .as("R before the id")
        .isNull();
    assertThat(grants.recognize(request("{\"final\":true,\"id\":7,\"R\":" + r + "}")))
        .as("final first")
        .isNull();
    assertThat(grants.recognize(request("{\"id\": 7,\"R\":" + r + "}"))).as("a space").isNull();
    assertThat(grants.recognize(request("{\"id\":07,\"R\":" + r + "}"))).as("a leading 0").isNull();
    assertThat(grants.recognize(request("{\"id\":99999999999999999999,\"R\":" + r + "}")))
        .as("an id beyond 64 bits")
        .isNull();
    assertThat(grants.recognize(request("{\"id\":7,\"R\":" + r + ",\"final\":true,\"x\":1}")))
        .as("a key after final")
        .isNull();
    assertThat(grants.recognize(request("{\"id\":7,\"R\":" + r + "} []")))
        .as("text after the object")
        .isNull();
    assertThat(grants.recognize(request("{\"id\":7,\"R\":" + r.substring(0, r.length() - 1))))
        .as("malformed")
        .isNull();
    assertThat(grants.recognize(Message.request("sched.free", new byte[] {'{', '}'})))
        .as("no NUL")
        .isNull();
    assertThat(grants.recognize(request("[7]"))).as("not an object").isNull();
    assertThat(grants.size())
        .as("nothing forgotten by a payload it did not recognize")
        .isEqualTo(1);
    grants.clear();
    assertThat(recognize(free(7L, sentR, true))).as("after a hello").isNull();
  }
}
