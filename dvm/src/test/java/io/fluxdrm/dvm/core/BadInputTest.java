package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmHarness.info;
import static io.fluxdrm.dvm.core.DvmHarness.sleep;
import static io.fluxdrm.dvm.core.DvmHarness.tool;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.apps;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.nodes;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.on;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.InvariantsExtension;
import io.fluxdrm.testkit.StepTable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad input of every kind: the right PMIx status, a reason saying where and why, no change of state
 * (the view before and after compared), no exception. Requests arrive as the JSON info arrays a
 * transport carries; a value whose type the catalog refuses (D71) never reaches the core: decoding
 * refuses it with PMIX_ERR_BAD_PARAM, the status a PMIx caller gets (D73).
 */
class BadInputTest {
  @RegisterExtension final InvariantsExtension inv = new InvariantsExtension();

  final DvmHarness h = new DvmHarness(DvmHarness.fourNodes().withMaxInfos(64), inv);
  final Client owner = tool("sessionctrl", 1000);
  final Client intruder = tool("intruder", 2000);

  // who | request | session id | infos (JSON) | expected status
  static final String TABLE =
      """
      # unknown sessions and ids out of range
      owner    | sc       | 9999       | [{"key":"pmix.ssn.pause","value":true}]          | PMIX_ERR_NOT_FOUND
      owner    | sc       | 4294967296 | [{"key":"pmix.ssn.pause","value":true}]          | PMIX_ERR_BAD_PARAM
      owner    | sc       | -1         | [{"key":"pmix.ssn.pause","value":true}]          | PMIX_ERR_BAD_PARAM
      # wrong value types: refused by the codec (D71) ...
      owner    | sc       | 4242       | [{"key":"pmix.ssn.sig","type":"PMIX_STRING","value":"15"}] | PMIX_ERR_BAD_PARAM
      owner    | sc       | 4242       | [{"key":"pmix.ssn.sig","value":"15"}]            | PMIX_ERR_BAD_PARAM
      owner    | sc       | 4242       | [{"key":"pmix.ssn.pause","value":1}]             | PMIX_ERR_BAD_PARAM
      owner    | sc       | 5          | [{"key":"pmix.ssn.inst","value":true},{"key":"pmix.alloc.nlist","type":"PMIX_UINT32","value":3}] | PMIX_ERR_BAD_PARAM
      owner    | sc       | 5          | [{"key":"pmix.ssn.inst","value":true},{"key":"pmix.alloc.time","type":"PMIX_UINT32","value":5}] | PMIX_ERR_BAD_PARAM
      # ... and by the core where the model allows the form (a data array of the wrong kind)
      owner    | sc       | 5          | [{"key":"pmix.ssn.inst","value":true},{"key":"pmix.alloc.nlist","value":"node4"},{"key":"pmix.ssn.app","value":[{"key":"pmix.nspace","value":"x"}]}] | PMIX_ERR_BAD_PARAM
      owner    | sc       | 5          | [{"key":"pmix.ssn.inst","value":true},{"key":"pmix.ssn.res","value":[{"cmd":"/bin/true"}]}] | PMIX_ERR_BAD_PARAM
      owner    | sc       | 5          | [{"key":"pmix.ssn.inst","value":true},{"key":"pmix.alloc.nlist","value":"node4"},{"key":"pmix.ssn.app","value":[]}] | PMIX_ERR_BAD_PARAM
      # malformed PMIX_ALLOC_TIME
      owner    | sc       | 4242       | [{"key":"pmix.ssn.xtend","value":true},{"key":"pmix.alloc.time","value":"1::2"}] | PMIX_ERR_BAD_PARAM
      owner    | sc       | 4242       | [{"key":"pmix.ssn.xtend","value":true},{"key":"pmix.alloc.time","value":""}]     | PMIX_ERR_BAD_PARAM
      owner    | sc       | 4242       | [{"key":"pmix.ssn.xtend","value":true},{"key":"pmix.alloc.time","value":"-5"}]   | PMIX_ERR_BAD_PARAM
      owner    | sc       | 4242       | [{"key":"pmix.ssn.xtend","value":true},{"key":"pmix.alloc.time","value":"1.5"}]  | PMIX_ERR_BAD_PARAM
      owner    | sc       | 5          | [{"key":"pmix.ssn.inst","value":true},{"key":"pmix.alloc.nlist","value":"node4"},{"key":"pmix.alloc.time","value":"1:2:3:4:5:6"}] | PMIX_ERR_BAD_PARAM
      owner    | alloc:NEW | 0         | [{"key":"pmix.alloc.nlist","value":"node4"},{"key":"pmix.alloc.time","value":"abc"}] | PMIX_ERR_BAD_PARAM
      # a requestor without entitlement
      intruder | sc       | 4242       | [{"key":"pmix.ssn.pause","value":true}]          | PMIX_ERR_NO_PERMISSIONS
      intruder | sc       | 4242       | [{"key":"pmix.ssn.terminate","value":true}]      | PMIX_ERR_NO_PERMISSIONS
      intruder | sc       | 4242       | [{"key":"pmix.ssn.xtend","value":true},{"key":"pmix.alloc.nlist","value":"node2"}] | PMIX_ERR_NO_PERMISSIONS
      intruder | alloc:EXTEND | 0      | [{"key":"pmix.alloc.id","value":"4242"},{"key":"pmix.alloc.nlist","value":"node2"}] | PMIX_ERR_NO_PERMISSIONS
      intruder | alloc:RELEASE | 0     | [{"key":"pmix.alloc.id","value":"4242"}]         | PMIX_ERR_NO_PERMISSIONS
      intruder | alloc:RELEASE | 0     | [{"key":"pmix.alloc.nlist","value":"node3"}]     | PMIX_ERR_NO_PERMISSIONS
      # signals out of range
      owner    | sc       | 4242       | [{"key":"pmix.ssn.sig","value":0}]               | PMIX_ERR_BAD_PARAM
      owner    | sc       | 4242       | [{"key":"pmix.ssn.sig","value":-9}]              | PMIX_ERR_BAD_PARAM
      owner    | sc       | 4242       | [{"key":"pmix.ssn.sig","value":65}]              | PMIX_ERR_BAD_PARAM
      owner    | sc       | 4242       | [{"key":"pmix.ssn.sig","value":2147483647}]      | PMIX_ERR_BAD_PARAM
      # other bad values
      owner    | sc       | 4242       | [{"key":"pmix.ssn.xtend","value":true},{"key":"pmix.timeout","value":-1}] | PMIX_ERR_BAD_PARAM
      owner    | sc       | 4242       | [{"key":"pmix.ssn.preempt","value":true},{"key":"pmix.nspace","value":"nope"}] | PMIX_ERR_NOT_FOUND
      owner    | sc       | 4242       | [{"key":"pmix.ssn.xtend","value":true},{"key":"pmix.alloc.nlist","value":"node["}] | PMIX_ERR_BAD_PARAM
      owner    | sc       | 4242       | [{"key":"pmix.ssn.xtend","value":true},{"key":"pmix.alloc.nlist","value":"node2:x"}] | PMIX_ERR_BAD_PARAM
      owner    | sc       | 4242       | [{"key":"pmix.ssn.xtend","value":true},{"key":"pmix.alloc.nlist","value":"node2:0"}] | PMIX_ERR_BAD_PARAM
      owner    | sc       | 4242       | [{"key":"pmix.ssn.xtend","value":true},{"key":"pmix.alloc.nlist","value":"node2,,node4"}] | PMIX_ERR_BAD_PARAM
      owner    | sc       | 4242       | [{"key":"pmix.ssn.xtend","value":true},{"key":"pmix.alloc.id","value":"x"}] | PMIX_ERR_BAD_PARAM
      owner    | sc       | 6          | [{"key":"pmix.ssn.inst","value":true},{"key":"pmix.alloc.nlist","value":"node3"}] | PMIX_ERR_RESOURCE_BUSY
      owner    | sc       | 6          | [{"key":"pmix.ssn.inst","value":true},{"key":"pmix.alloc.id","value":"4242"},{"key":"pmix.alloc.nlist","value":"node2"}] | PMIX_ERR_EXISTS
      owner    | sc       | 6          | [{"key":"pmix.ssn.inst","value":true},{"key":"pmix.alloc.nlist","value":"node2:1"},{"key":"pmix.ssn.app","value":[{"cmd":"/bin/sleep","maxprocs":3}]}] | PMIX_ERR_OUT_OF_RESOURCE
      owner    | alloc:NEW | 0         | [{"key":"pmix.alloc.nnodes","value":2}]          | PMIX_ERR_NOT_SUPPORTED
      owner    | alloc:NEW | 0         | []                                               | PMIX_ERR_BAD_PARAM
      owner    | alloc:NEW | 0         | [{"key":"pmix.alloc.id","value":"4242"},{"key":"pmix.alloc.nlist","value":"node2"}] | PMIX_ERR_NOT_SUPPORTED
      owner    | alloc:RELEASE | 0     | [{"key":"pmix.alloc.nlist","value":"node1"}]     | PMIX_ERR_BAD_PARAM
      owner    | alloc:RELEASE | 0     | [{"key":"pmix.alloc.nlist","value":"node3"}]     | PMIX_ERR_RESOURCE_BUSY
      owner    | alloc:REQ_CANCEL | 0  | []                                               | PMIX_ERR_BAD_PARAM
      owner    | alloc:REAQUIRE | 0    | []                                               | PMIX_ERR_NOT_SUPPORTED
      owner    | alloc:ACTIVATE | 0    | [{"key":"pmix.host","value":"nowhere"}]          | PMIX_ERR_NOT_FOUND
      owner    | alloc:ACTIVATE | 0    | [{"key":"pmix.host","value":"node3"},{"key":"pmix.host","value":"+n99"}] | PMIX_ERR_NOT_FOUND
      intruder | alloc:ACTIVATE | 0    | [{"key":"pmix.host","value":"node3"}]            | PMIX_ERR_NO_PERMISSIONS
      owner    | alloc:ACTIVATE | 0    | []                                               | PMIX_ERR_BAD_PARAM
      owner    | spawn    | 0          | [{"key":"pmix.spwn.tgt","value":[{"key":"x","type":"PMIX_UINT32","value":1}]}] | PMIX_ERR_BAD_PARAM
      owner    | spawn    | 0          | [{"key":"pmix.spwn.tgt","value":"4242"},{"key":"pmix.spwn.tgt","value":"nope"}] | PMIX_ERR_NOT_FOUND
      intruder | spawn    | 0          | [{"key":"pmix.spwn.tgt","value":"4242"}]         | PMIX_ERR_NO_PERMISSIONS
      """;

  @Test
  void eachBadRequestGetsItsStatusAndAReasonAndChangesNothing() {
    StatusInfos a =
        h.sessionControl(
                owner,
                "node1",
                4242,
                on(PmixKey.PMIX_SESSION_INSTANTIATE),
                nodes("node3:2"),
                apps(sleep(1)))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    List<String> failures = new ArrayList<>();
    List<StepTable.Row> rows = StepTable.parse(TABLE, 5);
    assertThat(rows).hasSize(51);
    for (StepTable.Row row : rows) {
      String before = DvmHarness.snapshot(h.core.view());
      int logBefore = h.log.size();
      PmixStatus expected = PmixStatus.valueOf(row.cell(4));
      StatusInfos got;
      try {
        got = run(row);
      } catch (RuntimeException e) {
        failures.add(row.where() + ": threw " + e);
        continue;
      }
      if (got.status() != expected) {
        failures.add(row.where() + ": got " + got.status() + " " + got.infos());
        continue;
      }
      if (got.infos().stream().noneMatch(i -> i.key().equals(DvmKeys.REASON))) {
        failures.add(row.where() + ": no reason in " + got.infos());
      }
      if (!DvmHarness.snapshot(h.core.view()).equals(before)) {
        failures.add(row.where() + ": the state changed");
      }
      for (DvmDecision d : h.log.subList(logBefore, h.log.size())) {
        if (!(d instanceof DvmDecision.Answer)) {
          failures.add(row.where() + ": decided " + d);
        }
      }
    }
    assertThat(failures).isEmpty();
  }

  private StatusInfos run(StepTable.Row row) {
    Client who = row.cell(0).equals("owner") ? owner : intruder;
    String kind = row.cell(1);
    List<Info> infos;
    try {
      infos = InfoCodec.decode(row.cell(3));
    } catch (PmixException e) {
      // the transport refuses it before any DVM sees it, with the status the caller gets
      return new StatusInfos(
          e.status(), List.of(new Info(DvmKeys.REASON, PmixDataType.PMIX_STRING, e.getMessage())));
    }
    long rid = h.nextRequestId();
    if (kind.equals("sc")) {
      h.event(new DvmEvent.SessionControl(rid, who, "node2", Long.parseLong(row.cell(2)), infos));
    } else if (kind.equals("spawn")) {
      h.event(new DvmEvent.Spawn(rid, who, "node2", List.of(sleep(1)), infos));
    } else {
      AllocDirective d = AllocDirective.valueOf(kind.substring("alloc:".length()));
      h.event(new DvmEvent.AllocationRequest(rid, who, "node2", d, infos));
    }
    return h.answers.get(rid);
  }

  @Test
  void anOversizeRequestIsRefusedWithTheDocumentedLimit() {
    h.sessionControl(owner, "node1", 4242, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node3"));
    String before = DvmHarness.snapshot(h.core.view());
    List<Info> many = new ArrayList<>();
    many.add(on(PmixKey.PMIX_SESSION_PAUSE));
    for (int i = 0; i < 64; i++) {
      many.add(new Info("other.rte.key" + i, PmixDataType.PMIX_BOOL, true));
    }
    StatusInfos a = h.sessionControl(owner, "node1", 4242, many.toArray(Info[]::new)).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(info(a, DvmKeys.REASON).orElseThrow().stringValue())
        .isEqualTo("request: 65 info entries (expected: at most 64, nested entries included)");
    // nested entries count too
    List<Info> inner = new ArrayList<>();
    for (int i = 0; i < 70; i++) {
      inner.add(new Info("other.rte.key" + i, PmixDataType.PMIX_BOOL, true));
    }
    StatusInfos b =
        h.sessionControl(
                owner,
                "node1",
                4242,
                on(PmixKey.PMIX_SESSION_EXTEND),
                Info.of(PmixKey.PMIX_SESSION_RESOURCES, inner))
            .orElseThrow();
    assertThat(b.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(before);
    assertThat(DvmConfig.DEFAULT_MAX_INFOS).isEqualTo(1024);
  }

  @Test
  void lateOrUnknownReportsAreIgnoredWithoutAnException() {
    String before = DvmHarness.snapshot(h.core.view());
    List<DvmEvent> noise =
        List.of(
            new DvmEvent.DaemonStarted("nowhere"),
            new DvmEvent.DaemonFailed("nowhere", "x"),
            new DvmEvent.DaemonLeft("node2"),
            new DvmEvent.JobLaunched("no-job"),
            new DvmEvent.JobLaunchFailed("no-job", PmixStatus.PMIX_ERROR, "x"),
            new DvmEvent.ProcExited("no-job", 0, 1, 0),
            new DvmEvent.TimerFired(12345),
            new DvmEvent.SchedulerAnswered(99, StatusInfos.of(PmixStatus.PMIX_SUCCESS)),
            new DvmEvent.SchedulerDetached(),
            new DvmEvent.FileRead(77, "x", java.util.Optional.empty(), "x"),
            new DvmEvent.SchedulerEvent(-194, List.of()));
    for (DvmEvent e : noise) {
      assertThatCode(() -> h.event(e)).as(e.toString()).doesNotThrowAnyException();
    }
    // node2's daemon "left" unasked: it is simply down now; nothing else changed
    assertThat(h.core.view().node("node2").orElseThrow().daemon()).isEqualTo(DaemonState.NONE);
    assertThat(
            DvmHarness.snapshot(h.core.view())
                .replace("node2, slots=2, daemon=NONE", "node2, slots=2, daemon=UP"))
        .isEqualTo(before);
  }
}
