package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.sched.ResourceRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A {@code sched.alloc} in flux-core's layout is read as bytes, and its jobspec's request is known
 * once the full path read that jobspec (D585); any other payload is not read here.
 */
class KnownJobspecsTest {
  /** A jobspec as flux-core 0.88's job manager sent it (captured on the local connector). */
  private static final String JOBSPEC =
      "{\"resources\":[{\"type\":\"node\",\"count\":1,\"exclusive\":true,\"with\":[{\"type\":\"slot\","
          + "\"count\":1,\"with\":[{\"type\":\"core\",\"count\":1}],\"label\":\"task\"}]}],"
          + "\"tasks\":[{\"command\":[\"true\"],\"slot\":\"task\",\"count\":{\"per_slot\":1}}],"
          + "\"attributes\":{\"system\":{\"duration\":0,\"cwd\":\"/tmp/a}b\\\"{\",\"shell\":{\"options\":"
          + "{\"rlimit\":{\"cpu\":-1,\"stack\":8388608}}},\"exec\":{\"test\":{\"run_duration\":\"0.01s\"}}}},"
          + "\"version\":1}";

  private static String alloc(String id, String priority, String userid, String t, String js) {
    return "{\"id\":"
        + id
        + ",\"priority\":"
        + priority
        + ",\"userid\":"
        + userid
        + ",\"t_submit\":"
        + t
        + ",\"jobspec\":"
        + js
        + "}";
  }

  private static Message request(String text) {
    return Message.request("sched.alloc", Json.text(text));
  }

  private static KnownJobspecs.Alloc read(String text) {
    return KnownJobspecs.read(request(text));
  }

  @Test
  void anAllocAsFluxCoresJobManagerSendsIt_isReadAsBytes() {
    KnownJobspecs.Alloc a = read(alloc("36540776448", "16", "1000", "1796617984.3162227", JOBSPEC));
    assertThat(a).isNotNull();
    assertThat(a.id()).isEqualTo(36540776448L);
    assertThat(a.priority()).isEqualTo(16);
    assertThat(a.userid()).isEqualTo(1000);
    assertThat(a.tSubmit()).isEqualTo(1796617984.3162227);
    assertThat(a.jobspec())
        .isEqualTo(new KnownJobspecs.Text(JOBSPEC.getBytes(StandardCharsets.US_ASCII)));
    assertThat(read(alloc("18446744073709551615", "4294967295", "0", "0", JOBSPEC)))
        .as("the largest id and priority, an integer t_submit")
        .extracting(KnownJobspecs.Alloc::id, KnownJobspecs.Alloc::priority)
        .containsExactly(-1L, 4294967295L);
  }

  @Test
  void anythingElse_isNotRead() {
    String[] others = {
      alloc("18446744073709551616", "16", "0", "1.5", JOBSPEC), // beyond 64 bits
      alloc("07", "16", "0", "1.5", JOBSPEC),
      alloc("-7", "16", "0", "1.5", JOBSPEC),
      alloc("7", "4294967296", "0", "1.5", JOBSPEC),
      alloc("7", "16", "-1", "1.5", JOBSPEC),
      alloc("7", "16.0", "0", "1.5", JOBSPEC),
      alloc("7", "16", "0", "-1.5", JOBSPEC),
      alloc("7", "16", "0", "1e999", JOBSPEC),
      alloc("7", "16", "0", "\"1.5\"", JOBSPEC),
      alloc("7", "16", "0", "1.5", "[" + JOBSPEC + "]"),
      alloc("7", "16", "0", "1.5", JOBSPEC + ",\"id\":8"),
      alloc("7", "16", "0", "1.5", JOBSPEC.substring(0, JOBSPEC.length() - 1)),
      alloc("7", "16", "0", "1.5", "{\"a\":\"" + "x".repeat(KnownJobspecs.MAX_TEXT) + "\"}"),
      "{\"priority\":16,\"id\":7,\"userid\":0,\"t_submit\":1.5,\"jobspec\":" + JOBSPEC + "}",
      "{\"id\": 7,\"priority\":16,\"userid\":0,\"t_submit\":1.5,\"jobspec\":" + JOBSPEC + "}",
      "{\"id\":7,\"priority\":16,\"userid\":0,\"jobspec\":" + JOBSPEC + "}",
      "{\"id\":7}",
    };
    for (String o : others) {
      assertThat(read(o)).as(o).isNull();
    }
    assertThat(KnownJobspecs.read(Message.request("sched.alloc", new byte[] {'{', '}'})))
        .as("no NUL")
        .isNull();
  }

  @Test
  void aJobspecIsKnownOnceLearned_byItsText_theLeastRecentlyUsedDroppedFirst() {
    KnownJobspecs known = new KnownJobspecs();
    ResourceRequest one = ResourceRequest.slots(1, 1);
    KnownJobspecs.Alloc a = read(alloc("7", "16", "0", "1.5", JOBSPEC));
    assertThat(known.request(a)).isNull();
    known.learn(a, one);
    assertThat(known.request(read(alloc("8", "0", "5", "2.5", JOBSPEC))))
        .as("another job, the same jobspec")
        .isSameAs(one);
    assertThat(known.request(read(alloc("8", "0", "5", "2.5", JOBSPEC.replace("true", "false")))))
        .as("another jobspec")
        .isNull();
    known.learn(null, one);
    assertThat(known.size()).as("a payload not read as bytes teaches nothing").isEqualTo(1);
    for (int i = 0; i < KnownJobspecs.CAPACITY; i++) {
      if (i == KnownJobspecs.CAPACITY / 2) {
        assertThat(known.request(a)).as("used again: kept").isSameAs(one);
      }
      known.learn(read(alloc("9", "0", "0", "0", "{\"n\":" + i + "}")), one);
    }
    assertThat(known.size()).isEqualTo(KnownJobspecs.CAPACITY);
    assertThat(known.request(a)).isSameAs(one);
    assertThat(known.request(read(alloc("9", "0", "0", "0", "{\"n\":0}"))))
        .as("the least recently used")
        .isNull();
  }
}
