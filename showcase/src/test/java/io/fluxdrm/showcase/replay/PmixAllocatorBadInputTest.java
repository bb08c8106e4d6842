package io.fluxdrm.showcase.replay;

import static io.fluxdrm.jobmanager.JmFixture.ALICE;
import static io.fluxdrm.jobmanager.JmFixture.BOB;
import static io.fluxdrm.showcase.replay.ChainFixture.done;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.jobmanager.JmFixture;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.ShellPlugin;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input through the PMIx facade, over the real chain: each request is refused with the right
 * PMIx status (or, for a malformed RPC envelope or a foreign caller, errno) and changes nothing:
 * not the job's eventlog, its R at the job manager, the scheduler or the shell, not the facade's
 * maps, and nothing stays pending anywhere.
 */
@Timeout(20)
class PmixAllocatorBadInputTest {
  @TempDir Path dir;

  private ChainFixture c;
  private ChainFixture.Job a;
  private String eventlog;
  private ResourceSet r;
  private Map<String, ResourceSet> reservations;

  /** Job A of ALICE (node0) holding a reservation on node2; job B of BOB on node1. */
  private void start() {
    c = ChainFixture.standard(dir);
    a = c.submit(1, ALICE);
    c.submit(1, BOB);
    PmixAnswer g = done(c.ask(a, AllocDirective.NEW, ChainFixture.nodes(1)));
    assertThat(g.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    eventlog = c.f.eventlogText(a.id);
    r = c.f.jm.jobR(a.id).orElseThrow();
    reservations = a.pmix.reservations();
  }

  private void nothingChanged() {
    assertThat(c.f.eventlogText(a.id)).isEqualTo(eventlog);
    assertThat(JmFixture.sameResources(c.f.jm.jobR(a.id).orElseThrow(), r)).isTrue();
    assertThat(JmFixture.sameResources(a.plugin.r(), r)).isTrue();
    assertThat(a.plugin.releasing().isEmpty()).isTrue();
    assertThat(a.pmix.reservations()).isEqualTo(reservations);
    assertThat(a.pmix.pendingRequests()).isZero();
    assertThat(a.plugin.pendingReallocs()).isZero();
    assertThat(c.f.jm.pendingReallocs()).isZero();
    assertThat(c.f.sched.core().pendingReallocs()).isZero();
    c.check();
  }

  private static Info raw(String key, PmixDataType t, Object v) {
    return new Info(key, t, v);
  }

  static Stream<Arguments> refusals() {
    Info n1 = ChainFixture.nodes(1);
    return Stream.of(
        Arguments.of(
            "unknown key",
            AllocDirective.NEW.code(),
            List.of(n1, raw("x.bogus", PmixDataType.PMIX_STRING, "y")),
            PmixStatus.PMIX_ERR_NOT_SUPPORTED,
            "info 1 (x.bogus): unknown key (expected: a key of the allocation request)"),
        Arguments.of(
            "key without jobspec meaning",
            AllocDirective.NEW.code(),
            List.of(n1, Info.of(PmixKey.PMIX_ALLOC_MEM_SIZE, 4.0f)),
            PmixStatus.PMIX_ERR_NOT_SUPPORTED,
            "info 1 (pmix.alloc.msize): PMIX_ALLOC_MEM_SIZE has no RFC 51 / jobspec version 1"
                + " equivalent"),
        Arguments.of(
            "A3 malformed TIME field",
            AllocDirective.NEW.code(),
            List.of(n1, Info.of(PmixKey.PMIX_ALLOC_TIME, "1:xx")),
            PmixStatus.PMIX_ERR_BAD_PARAM,
            "pmix.alloc.time \"1:xx\": field 2 of 2 \"xx\" is not digits"),
        Arguments.of(
            "A3 TIME with six fields",
            AllocDirective.EXTEND.code(),
            List.of(n1, Info.of(PmixKey.PMIX_ALLOC_TIME, "1:2:3:4:5:6")),
            PmixStatus.PMIX_ERR_BAD_PARAM,
            "pmix.alloc.time \"1:2:3:4:5:6\": 6 fields (expected: at most 5"),
        Arguments.of(
            "B12 release of a node the job does not hold",
            AllocDirective.RELEASE.code(),
            List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node3")),
            PmixStatus.PMIX_ERR_NOT_FOUND,
            "pmix.alloc.nlist \"node3\""),
        Arguments.of(
            "B10/B7 release of an unknown reservation",
            AllocDirective.RELEASE.code(),
            List.of(Info.of(PmixKey.PMIX_ALLOC_ID, "77")),
            PmixStatus.PMIX_ERR_NOT_FOUND,
            "pmix.alloc.id \"77\": not an allocation of job 1 (expected: one of [1])"),
        Arguments.of(
            "B7 extend of an unknown reservation",
            AllocDirective.EXTEND.code(),
            List.of(n1, Info.of(PmixKey.PMIX_ALLOC_ID, "77")),
            PmixStatus.PMIX_ERR_NOT_FOUND,
            "pmix.alloc.id \"77\": not an allocation of job 1"),
        Arguments.of(
            "B13 release naming nothing",
            AllocDirective.RELEASE.code(),
            List.of(),
            PmixStatus.PMIX_ERR_NOT_FOUND,
            "PMIX_ALLOC_RELEASE: names nothing to release"),
        Arguments.of(
            "release of every node",
            AllocDirective.RELEASE.code(),
            List.of(ChainFixture.nodes(2)),
            PmixStatus.PMIX_ERR_BAD_PARAM,
            "pmix.alloc.nnodes 2: job 1 holds 2 nodes (expected: fewer than it holds"),
        Arguments.of(
            "cancel naming no request",
            AllocDirective.REQ_CANCEL.code(),
            List.of(),
            PmixStatus.PMIX_ERR_BAD_PARAM,
            "PMIX_ALLOC_REQ_CANCEL: names no request"),
        Arguments.of(
            "cancel of a request not pending",
            AllocDirective.REQ_CANCEL.code(),
            List.of(ChainFixture.reqId("r9")),
            PmixStatus.PMIX_ERR_NOT_FOUND,
            "pmix.alloc.reqid \"r9\": no pending request of 1000-pmix-f2"),
        Arguments.of(
            "unknown directive",
            99,
            List.of(n1),
            PmixStatus.PMIX_ERR_NOT_SUPPORTED,
            "directive 99: unknown"),
        Arguments.of(
            "zero nodes",
            AllocDirective.NEW.code(),
            List.of(ChainFixture.nodes(0)),
            PmixStatus.PMIX_ERR_BAD_PARAM,
            "pmix.alloc.nnodes 0 (expected: 1 to "));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusals")
  void allocationRequest_badRequest_refusedWithStatusNoChange(
      String name, int directive, List<Info> infos, PmixStatus status, String message) {
    start();
    CompletableFuture<PmixAnswer> f = a.pmix.allocationRequest(directive, infos);
    assertThat(f).as("refused before anything is sent").isCompleted();
    PmixAnswer ans = f.join();
    assertThat(ans.status()).isEqualTo(status);
    assertThat(ans.message()).startsWith(message);
    c.f.settle();
    nothingChanged();
  }

  private CompletableFuture<Message> rpc(FluxHandle h, Object payload) {
    CompletableFuture<Message> f =
        h.rpc(a.pmix.serviceName() + "." + PmixAllocator.METHOD, payload);
    c.f.settle();
    return f;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          wrong value type   | {"directive":1,"info":[{"key":"pmix.alloc.nnodes","value":"two"}]} | -27 | 1000-pmix-f2.allocation-request: /info/0/value: "two" is not a uint64
          type the key lacks | {"directive":1,"info":[{"key":"pmix.alloc.nnodes","type":"PMIX_STRING","value":"2"}]} | -27 | 1000-pmix-f2.allocation-request: /info/0
          untyped unknown key| {"directive":1,"info":[{"key":"x.bogus","value":1}]} | -27 | 1000-pmix-f2.allocation-request: /info/0
          typed unknown key  | {"directive":1,"info":[{"key":"x.bogus","type":"PMIX_STRING","value":"1"}]} | -47 | info 0 (x.bogus): unknown key
          malformed TIME     | {"directive":1,"info":[{"key":"pmix.alloc.nnodes","value":1},{"key":"pmix.alloc.time","value":"1:-2"}]} | -27 | pmix.alloc.time "1:-2": field 2 of 2 "-2" is not digits
          """)
  void rpc_badInfos_pmixStatusNoChange(String name, String payload, int status, String message)
      throws Exception {
    start();
    FluxHandle app = c.app(a);
    ObjectNode p = (ObjectNode) Json.mapper().readTree(payload);
    ObjectNode ans = JmFixture.answer(rpc(app, p));
    assertThat(ans.get("status").asInt()).isEqualTo(status);
    assertThat(ans.get("info").size()).isZero();
    assertThat(ans.get("message").asText()).startsWith(message);
    nothingChanged();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          no directive      | {"info":[]}                     | 1000-pmix-f2.allocation-request: /directive: missing (expected: a pmix_alloc_directive_t, 0 to 255)
          directive a string| {"directive":"NEW"}             | 1000-pmix-f2.allocation-request: /directive: "NEW" (expected: a pmix_alloc_directive_t, 0 to 255)
          info an object    | {"directive":1,"info":{}}       | 1000-pmix-f2.allocation-request: /info: object (expected: an info array)
          unknown key       | {"directive":1,"infos":[]}      | 1000-pmix-f2.allocation-request: /infos: unknown key (expected: one of [directive, info])
          """)
  void rpc_malformedEnvelope_eprotoNoChange(String name, String payload, String message)
      throws Exception {
    start();
    RpcException e = JmFixture.error(rpc(c.app(a), (ObjectNode) Json.mapper().readTree(payload)));
    assertThat(e.errnum()).isEqualTo(Errno.EPROTO);
    assertThat(e.getMessage()).isEqualTo(message);
    nothingChanged();
  }

  @Test
  void rpc_callerNotTheJobsUser_epermNoChange() {
    start();
    FluxHandle bob = c.f.hub.attach(Credentials.user(BOB));
    ObjectNode p = Json.object().put("directive", 1);
    p.set("info", io.fluxdrm.pmix.InfoCodec.encode(List.of(ChainFixture.nodes(1))));
    RpcException e = JmFixture.error(rpc(bob, p));
    assertThat(e.errnum()).isEqualTo(Errno.EPERM);
    assertThat(e.getMessage())
        .isEqualTo(
            "1000-pmix-f2.allocation-request: user 1001 may not act on job 1 (expected: user"
                + " 1000 or the instance owner)");
    nothingChanged();
  }

  @Test
  void allocationRequest_jobNotTheCallers_noPermissionsNoChange() {
    start();
    // a shell of BOB claiming ALICE's job: the job manager refuses it (D16)
    ShellPlugin foreign = ShellPlugin.create(a.id, BOB, r);
    FluxHandle h = c.f.hub.attach(Credentials.user(BOB));
    foreign.attach(h);
    PmixAllocator pmix = PmixAllocator.create(foreign);
    CompletableFuture<PmixAnswer> f =
        pmix.allocationRequest(AllocDirective.NEW, List.of(ChainFixture.nodes(1)));
    c.f.settle();
    PmixAnswer ans = done(f);
    assertThat(ans.status()).isEqualTo(PmixStatus.PMIX_ERR_NO_PERMISSIONS);
    assertThat(ans.message()).contains("user 1001 may not act on job 1");
    assertThat(pmix.reservations()).isEmpty();
    nothingChanged();
  }

  @Test
  void b8_extendOfAnotherJobsReservation_notFoundNoChange() {
    start();
    ChainFixture.Job b = c.jobs.get(1);
    String aRes = reservations.keySet().iterator().next();
    String bLog = c.f.eventlogText(b.id);
    CompletableFuture<PmixAnswer> f =
        b.pmix.allocationRequest(
            AllocDirective.EXTEND, List.of(ChainFixture.nodes(1), ChainFixture.allocId(aRes)));
    PmixAnswer ans = done(f);
    // a job sees only its own reservations (D131): another's id is not found, not disclosed
    assertThat(ans.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
    assertThat(ans.message())
        .isEqualTo(
            "pmix.alloc.id \"" + aRes + "\": not an allocation of job 2 (expected: one of [])");
    c.f.settle();
    assertThat(c.f.eventlogText(b.id)).isEqualTo(bLog);
    nothingChanged();
  }

  @Test
  void allocationRequest_unknownJob_notFoundNoChange() {
    start();
    ShellPlugin ghost = ShellPlugin.create(99, ALICE, r);
    ghost.attach(c.f.hub.attach(Credentials.user(ALICE)));
    PmixAllocator pmix = PmixAllocator.create(ghost);
    CompletableFuture<PmixAnswer> f =
        pmix.allocationRequest(
            AllocDirective.NEW, List.of(ChainFixture.nodes(1), ChainFixture.reqId("x")));
    c.f.settle();
    PmixAnswer ans = done(f);
    assertThat(ans.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
    assertThat(ans.infos()).containsExactly(ChainFixture.reqId("x"));
    assertThat(ans.message()).contains("job 99 unknown");
    assertThat(pmix.pendingRequestIds()).isEmpty();
    nothingChanged();
  }
}
