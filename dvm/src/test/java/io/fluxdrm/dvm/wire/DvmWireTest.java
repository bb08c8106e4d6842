package io.fluxdrm.dvm.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.schemas.Schemas;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each payload: valid against its schema, and read back as written. */
class DvmWireTest {
  private static final List<Info> INFOS =
      List.of(
          Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n2:2,n3:2"),
          Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "r1"));
  private static final PmixProc P = new PmixProc("fluxdrm.tool.peer-1", 0);

  @Test
  void allocRequest_roundTripAndSchema() {
    ObjectNode o = DvmWire.allocRequest(AllocDirective.NEW, INFOS);
    assertThat(Schemas.validate("dvm.alloc-request", o)).isEmpty();
    DvmWire.AllocRequest r = DvmWire.readAllocRequest("dvm.alloc", o);
    assertThat(r.directive()).contains(AllocDirective.NEW);
    assertThat(r.infos()).isEqualTo(INFOS);
  }

  @Test
  void sessionControlRequest_withApps_roundTripAndSchema() {
    List<Info> d =
        List.of(
            Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true),
            Info.of(
                PmixKey.PMIX_SESSION_APP,
                List.of(new App("/bin/sleep", List.of("/bin/sleep", "300"), 2, List.of()))));
    ObjectNode o = DvmWire.sessionControlRequest(42, d);
    assertThat(Schemas.validate("dvm.session-control-request", o)).isEmpty();
    assertThat(DvmWire.readSessionControlRequest("t", o).directives()).isEqualTo(d);
  }

  @Test
  void spawn_roundTripAndSchema() {
    List<App> apps = List.of(new App("/bin/true", List.of("/bin/true"), 1, List.of()));
    ObjectNode o = DvmWire.spawnRequest(apps, INFOS);
    assertThat(Schemas.validate("dvm.spawn-request", o)).isEmpty();
    assertThat(DvmWire.readSpawnRequest("t", o).apps()).isEqualTo(apps);
    SpawnResult r = new SpawnResult(PmixStatus.PMIX_SUCCESS, Optional.of("ns"));
    ObjectNode a = DvmWire.spawnResult(r);
    assertThat(Schemas.validate("dvm.spawn-response", a)).isEmpty();
    assertThat(DvmWire.readSpawnResult("t", a)).isEqualTo(r);
  }

  @Test
  void upcalls_roundTripAndSchema() {
    ObjectNode a = DvmWire.allocUpcall(P, AllocDirective.EXTEND, INFOS);
    assertThat(Schemas.validate("dvm-sched.allocate-request", a)).isEmpty();
    assertThat(DvmWire.readAllocUpcall("t", a).requester()).isEqualTo(P);
    ObjectNode s = DvmWire.sessionControlUpcall(P, 7, INFOS);
    assertThat(Schemas.validate("dvm-sched.session-control-request", s)).isEmpty();
    assertThat(DvmWire.readSessionControlUpcall("t", s).request().sessionId()).isEqualTo(7);
  }

  @Test
  void eventAndRegistration_roundTripAndSchema() {
    Event e =
        new Event(
            PmixStatus.PMIX_DVM_IS_READY.code(),
            P,
            INFOS,
            Optional.of(P),
            Event.Range.PMIX_RANGE_CUSTOM);
    ObjectNode o = DvmWire.event(e);
    assertThat(Schemas.validate("dvm.event-register-response", o)).isEmpty();
    assertThat(DvmWire.readEvent("t", o)).isEqualTo(e);
    assertThat(
            Schemas.validate(
                "dvm.event-register-response", DvmWire.registered(PmixStatus.PMIX_SUCCESS, 3)))
        .isEmpty();
    assertThat(
            Schemas.validate("dvm.event-register-request", DvmWire.registerRequest(List.of(-195))))
        .isEmpty();
  }

  @Test
  void statusInfos_roundTripAndSchema() {
    StatusInfos a = new StatusInfos(PmixStatus.PMIX_ERR_NOT_FOUND, INFOS);
    ObjectNode o = DvmWire.statusInfos(a);
    assertThat(Schemas.validate("dvm.alloc-response", o)).isEmpty();
    assertThat(DvmWire.readStatusInfos("t", o)).isEqualTo(a);
  }

  @Test
  void read_badShapes_locatedEproto() {
    assertThatThrownBy(
            () -> DvmWire.readSessionControlRequest("dvm.session-control", Json.object()))
        .isInstanceOf(RpcException.class)
        .hasMessage(
            "dvm.session-control: /session_id: missing (expected: an integer from 0 to"
                + " 4294967295)");
    ObjectNode o = DvmWire.allocRequest(AllocDirective.NEW, INFOS);
    o.put("directive", 300);
    assertThatThrownBy(() -> DvmWire.readAllocRequest("dvm.alloc", o))
        .hasMessage("dvm.alloc: /directive: 300 (expected: an integer from 0 to 255)");
    ObjectNode s = DvmWire.spawnRequest(List.of(new App("x", List.of(), 1, List.of())), INFOS);
    ((ObjectNode) s.get("apps").get(0)).put("maxprocs", 0);
    assertThatThrownBy(() -> DvmWire.readSpawnRequest("dvm.spawn", s))
        .hasMessage("dvm.spawn: /apps/0/maxprocs: 0 (expected: an integer from 1 to 2147483647)");
    ObjectNode st = DvmWire.statusInfos(StatusInfos.of(PmixStatus.PMIX_SUCCESS));
    st.put("status", -99999);
    assertThatThrownBy(() -> DvmWire.readStatusInfos("dvm.alloc", st))
        .hasMessage("dvm.alloc: /status: -99999 is not a PMIx status this side knows");
  }

  @Test
  void read_infoValueOfWrongType_badInfosAnsweredBadParam() {
    ObjectNode o = DvmWire.sessionControlRequest(1, List.of());
    o.putArray("directives")
        .addObject()
        .put("key", PmixKey.PMIX_SESSION_SIGNAL)
        .put("value", "fifteen");
    assertThatThrownBy(() -> DvmWire.readSessionControlRequest("dvm.session-control", o))
        .isInstanceOfSatisfying(
            DvmWire.BadInfos.class,
            e -> {
              assertThat(e.answer().status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
              assertThat(DvmWire.errorText(e.answer()))
                  .get()
                  .asString()
                  .startsWith("dvm.session-control: /directives/0/value: \"fifteen\"");
            });
  }

  @Test
  void readHosts_notAListOfNames_eprotoLocated() throws Exception {
    ObjectNode ok = DvmWire.hosts(List.of("n1", "n2"));
    assertThat(DvmWire.readHosts("t", ok)).containsExactly("n1", "n2");
    assertThat(Schemas.validate("dvm-sched.nodes-released-request", ok)).isEmpty();
    for (String bad :
        List.of("{}", "{\"hosts\":\"n1\"}", "{\"hosts\":[1]}", "{\"hosts\":[\"\"]}")) {
      ObjectNode p = (ObjectNode) Json.mapper().readTree(bad);
      assertThat(Schemas.validate("dvm-sched.nodes-released-request", p)).as(bad).isNotEmpty();
      assertThatThrownBy(() -> DvmWire.readHosts("dvm-sched.nodes-released", p))
          .as(bad)
          .isInstanceOf(RpcException.class)
          .hasMessageStartingWith("dvm-sched.nodes-released: /hosts");
    }
  }
}
