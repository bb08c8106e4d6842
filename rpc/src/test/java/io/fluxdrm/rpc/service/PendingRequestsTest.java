package io.fluxdrm.rpc.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PendingRequestsTest {

  private static ServiceRequest req(String topic, String sender, int matchtag) {
    Message m = Message.request(topic, Map.of()).withMatchtag(matchtag).pushRoute(sender);
    return new ServiceRequest(m, null, false);
  }

  @Test
  void add_sameSenderAndMatchtag_refusedWithEprotoAndFirstKept() {
    PendingRequests<String> p = new PendingRequests<>();
    p.add(req("sched.realloc", "jm", 7), "first");

    assertThatThrownBy(() -> p.add(req("sched.realloc", "jm", 7), "second"))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EPROTO))
        .hasMessage("sched.realloc: matchtag 7 already pending");
    assertThat(p.get("jm", 7)).isEqualTo("first");
    assertThat(p.size()).isEqualTo(1);
  }

  @Test
  void add_sameMatchtagOtherSender_bothPending() {
    PendingRequests<String> p = new PendingRequests<>();
    p.add(req("t", "a", 1), "a1");
    p.add(req("t", "b", 1), "b1");

    assertThat(p.get("a", 1)).isEqualTo("a1");
    assertThat(p.get("b", 1)).isEqualTo("b1");
  }

  @Test
  void canceledBy_rfc6CancelWithTheRequestsMatchtag_findsIt() {
    PendingRequests<String> p = new PendingRequests<>();
    p.add(req("shell.realloc", "c", 3), "r");

    assertThat(p.canceledBy(req("shell.cancel", "c", 3))).isEqualTo("r");
    assertThat(p.canceledBy(req("shell.cancel", "other", 3))).isNull();
  }

  @Test
  void sweep_disconnect_removesOnlyThatSendersInArrivalOrder() {
    PendingRequests<String> p = new PendingRequests<>();
    p.add(req("t", "a", 5), "a5");
    p.add(req("t", "b", 1), "b1");
    p.add(req("t", "a", 2), "a2");

    assertThat(p.ofSender("a")).containsExactly("a5", "a2");
    assertThat(p.sweep("a")).containsExactly("a5", "a2");
    assertThat(p.values()).containsExactly("b1");
    assertThat(p.sweep("a")).isEmpty();
  }

  @Test
  void remove_onlyWhenStillTheSameValue() {
    PendingRequests<String> p = new PendingRequests<>();
    PendingRequests.Key k = p.add(req("t", "a", 1), "x");

    assertThat(p.remove(k, "y")).isFalse();
    assertThat(p.remove(k, "x")).isTrue();
    assertThat(p.isEmpty()).isTrue();
  }

  @Test
  void matchtagOf_missingOrNotAnInteger_locatedEproto() {
    ObjectNode none = JsonNodeFactory.instance.objectNode();
    ObjectNode text = JsonNodeFactory.instance.objectNode().put("matchtag", "3");
    ObjectNode big = JsonNodeFactory.instance.objectNode().put("matchtag", 1L << 40);
    ObjectNode ok = JsonNodeFactory.instance.objectNode().put("matchtag", 9);

    assertThatThrownBy(() -> PendingRequests.matchtagOf("sched.realloc_cancel", none))
        .hasMessage("sched.realloc_cancel: /matchtag: missing (expected: an integer matchtag)");
    assertThatThrownBy(() -> PendingRequests.matchtagOf("sched.realloc_cancel", text))
        .hasMessage("sched.realloc_cancel: /matchtag: \"3\" (expected: an integer matchtag)");
    assertThatThrownBy(() -> PendingRequests.matchtagOf("x", big)).isInstanceOf(RpcException.class);
    assertThat(PendingRequests.matchtagOf("x", ok)).isEqualTo(9);
  }
}
