package io.fluxdrm.jobmanager;

import static io.fluxdrm.jobmanager.JmFixture.ALICE;
import static io.fluxdrm.jobmanager.JmFixture.BOB;
import static io.fluxdrm.jobmanager.JmFixture.nodes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * RFC 27 {@code sched.alloc} as flux-core's job manager speaks it: matchtag 0, several responses
 * per alloc correlated by job id (ANNOTATE, then SUCCESS, DENY or CANCEL), against a fake scheduler
 * that annotates as Fluxion does, and against sched-simple with pending annotations.
 */
@Timeout(20)
class JobManagerAllocTest {
  @TempDir Path dir;

  private final List<ServiceRequest> allocs = new ArrayList<>();
  private FluxHandle sched;

  /** The job {@link #submitOne} submitted, and its id. */
  private CompletableFuture<Long> job;

  private long id;

  /** A job manager and a fake {@code sched} that keeps every alloc, online (hello and ready). */
  private JmFixture online() {
    JmFixture f = new JmFixture(dir).startJobManager();
    sched = f.hub.attach(Credentials.owner(JmFixture.OWNER));
    CompletableFuture<Void> up =
        sched.register(Service.builder("sched").on("alloc", allocs::add).build());
    f.settle();
    assertThat(up).isCompleted();
    helloAndReady(f);
    return f;
  }

  /** Submits a one-node job for Alice, sets {@link #job} and {@link #id} from its first alloc. */
  private void submitOne(JmFixture f) {
    job = f.jm.submit(nodes(1), ALICE);
    f.settle();
    id = allocs.get(0).json().get("id").asLong();
  }

  /** Grants {@link #job} rank 0 in the alloc request {@code i} and checks that it completes. */
  private void grantOneNode(JmFixture f, int i) {
    allocs.get(i).respond(success(id, JmFixture.pool(1, 4), null));
    f.settle();
    assertThat(job.join()).isEqualTo(id);
  }

  private void helloAndReady(JmFixture f) {
    CompletableFuture<Void> hello =
        sched.stream("job-manager.sched-hello", Json.object(), m -> {}, null).done();
    f.settle();
    assertThat(hello).isCompleted();
    CompletableFuture<Message> ready =
        sched.rpc("job-manager.sched-ready", Json.object().put("mode", "unlimited"));
    f.settle();
    assertThat(ready).isCompleted();
    assertThat(f.jm.schedulerOnline()).isTrue();
  }

  /** Sends one response to the alloc request {@code i} without finishing it. */
  private void respond(int i, ObjectNode payload) {
    sched.sendRaw(Message.response(allocs.get(i).message(), 0, Json.encode(payload)));
  }

  private static JsonNode parse(String json) {
    try {
      return Json.mapper().readTree(json);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static ObjectNode answer(long id, int type) {
    return Json.object().put("id", id).put("type", type);
  }

  private static ObjectNode annotate(long id, String sched) {
    ObjectNode a = answer(id, 1);
    a.set("annotations", Json.object().set("sched", parse(sched)));
    return a;
  }

  private static ObjectNode success(long id, ResourceSet r, String sched) {
    ObjectNode a = answer(id, 0);
    a.set("R", r.toJson());
    if (sched != null) {
      a.set("annotations", Json.object().set("sched", parse(sched)));
    }
    return a;
  }

  private static Throwable cause(CompletableFuture<?> f) {
    assertThat(f).isCompletedExceptionally();
    try {
      f.get();
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    throw new AssertionError("not failed");
  }

  @Test
  void alloc_annotatingScheduler_annotationsMergedThenSnapshotInAllocEvent() {
    JmFixture f = online();
    submitOne(f);
    assertThat(allocs).hasSize(1);
    assertThat(allocs.get(0).matchtag()).isZero();
    respond(0, annotate(id, "{\"reason_pending\":\"insufficient resources\",\"jobs_ahead\":2}"));
    respond(0, annotate(id, "{\"jobs_ahead\":1,\"t_estimate\":1500.5}"));
    f.settle();
    assertThat(job).isNotDone();
    assertThat(f.jm.annotations(id).orElseThrow().toString())
        .isEqualTo(
            "{\"sched\":{\"reason_pending\":\"insufficient resources\",\"jobs_ahead\":1,"
                + "\"t_estimate\":1500.5}}");
    assertThat(f.eventNames(id)).containsExactly("submit");
    ResourceSet r = JmFixture.pool(1, 4);
    allocs
        .get(0)
        .respond(
            success(
                id,
                r,
                "{\"reason_pending\":null,\"jobs_ahead\":null,\"t_estimate\":null,"
                    + "\"resource_summary\":\"rank0/core[0-3]\"}"));
    f.settle();
    assertThat(job.join()).isEqualTo(id);
    assertThat(f.jm.jobR(id).orElseThrow().summary()).isEqualTo("rank0/core[0-3]");
    assertThat(f.eventNames(id)).containsExactly("submit", "alloc");
    assertThat(f.events(id).get(1).context().get("annotations").toString())
        .isEqualTo("{\"sched\":{\"resource_summary\":\"rank0/core[0-3]\"}}");
    assertThat(f.jm.annotations(id).orElseThrow().toString())
        .isEqualTo("{\"sched\":{\"resource_summary\":\"rank0/core[0-3]\"}}");
  }

  @Test
  void alloc_successWithoutAnnotations_allocEventHasROnly() {
    JmFixture f = online();
    submitOne(f);
    allocs.get(0).respond(success(id, JmFixture.pool(1, 4), null));
    f.settle();
    assertThat(job).isCompleted();
    JsonNode ctx = f.events(id).get(1).context();
    assertThat(ctx.has("annotations")).isFalse();
    assertThat(ctx.has("R")).isTrue();
    assertThat(f.jm.annotations(id)).isEmpty();
  }

  @Test
  void alloc_deniedAfterAnnotate_annotationsClearedAndAllocException() {
    JmFixture f = online();
    submitOne(f);
    respond(0, annotate(id, "{\"reason_pending\":\"insufficient resources\"}"));
    f.settle();
    assertThat(f.jm.annotations(id)).isPresent();
    allocs.get(0).respond(answer(id, 2).put("note", "unsatisfiable request"));
    f.settle();
    assertThat(cause(job))
        .isInstanceOf(JobManagerException.class)
        .hasMessage("sched.alloc " + id + ": denied: unsatisfiable request");
    assertThat(f.jm.annotations(id)).isEmpty();
    assertThat(f.eventNames(id)).containsExactly("submit", "exception");
    assertThat(f.events(id).get(1).context().get("type").asText()).isEqualTo("alloc");
  }

  @Test
  void alloc_severalJobsAnsweredOutOfOrder_eachCorrelatedByItsId() {
    JmFixture f = online();
    CompletableFuture<Long> a = f.jm.submit(nodes(1), ALICE);
    CompletableFuture<Long> b = f.jm.submit(nodes(1), BOB);
    f.settle();
    assertThat(allocs).hasSize(2);
    long ida = allocs.get(0).json().get("id").asLong();
    long idb = allocs.get(1).json().get("id").asLong();
    respond(1, annotate(idb, "{\"jobs_ahead\":0}"));
    allocs.get(1).respond(success(idb, JmFixture.pool(2, 4).copyRanks(IdSet.of(1)), null));
    f.settle();
    assertThat(b.join()).isEqualTo(idb);
    assertThat(a).isNotDone();
    allocs.get(0).respond(success(ida, JmFixture.pool(1, 4), null));
    f.settle();
    assertThat(a.join()).isEqualTo(ida);
    assertThat(f.jm.jobR(ida).orElseThrow().summary()).isEqualTo("rank0/core[0-3]");
    assertThat(f.jm.jobR(idb).orElseThrow().summary()).isEqualTo("rank1/core[0-3]");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          unknown job        | 99
          allocated already  | 0
          """)
  void alloc_responseForJobWithoutPendingAlloc_ignoredAndInterfaceStaysUp(String why, long id) {
    JmFixture f = online();
    CompletableFuture<Long> first = f.jm.submit(nodes(1), ALICE);
    f.settle();
    long allocated = allocs.get(0).json().get("id").asLong();
    allocs.get(0).respond(success(allocated, JmFixture.pool(1, 4), null));
    f.settle();
    assertThat(first).isCompleted();
    CompletableFuture<Long> second = f.jm.submit(nodes(1), BOB);
    f.settle();
    long pendingId = allocs.get(1).json().get("id").asLong();
    long stray = id == 0 ? allocated : id;
    String before = f.eventlogText(allocated);
    // a stray SUCCESS (for a job the job manager does not know, or one allocated already)
    respond(1, success(stray, JmFixture.pool(2, 4), null));
    f.settle();
    assertThat(f.jm.schedulerOnline()).isTrue();
    assertThat(f.jm.jobR(99)).isEmpty();
    assertThat(f.eventlogText(allocated)).isEqualTo(before);
    assertThat(f.jm.jobR(allocated).orElseThrow().summary()).isEqualTo("rank0/core[0-3]");
    assertThat(second).isNotDone();
    allocs.get(1).respond(success(pendingId, JmFixture.pool(2, 4).copyRanks(IdSet.of(1)), null));
    f.settle();
    assertThat(second.join()).isEqualTo(pendingId);
  }

  @Test
  void alloc_errorResponse_interfaceDownThenAllocSentAgainAfterNextReady() {
    JmFixture f = online();
    submitOne(f);
    allocs.get(0).fail(Errno.EIO, "sched.alloc: store failed");
    f.settle();
    assertThat(f.jm.schedulerOnline()).isFalse();
    assertThat(job).isNotDone();
    // submitted while offline: waits for the next ready too
    CompletableFuture<Long> later = f.jm.submit(nodes(1), BOB);
    f.settle();
    assertThat(allocs).hasSize(1);
    helloAndReady(f);
    assertThat(allocs).hasSize(3);
    assertThat(allocs.get(1).json().get("id").asLong()).isEqualTo(id);
    grantOneNode(f, 1);
    assertThat(later).isNotDone();
  }

  @Test
  void alloc_canceled_backInQueueAndSentAgainAfterNextReady() {
    JmFixture f = online();
    submitOne(f);
    respond(0, annotate(id, "{\"jobs_ahead\":3}"));
    allocs.get(0).respond(answer(id, 3));
    f.settle();
    assertThat(job).isNotDone();
    assertThat(f.jm.annotations(id)).isEmpty();
    assertThat(f.eventNames(id)).containsExactly("submit");
    helloAndReady(f);
    assertThat(allocs).hasSize(2);
    grantOneNode(f, 1);
  }

  @Test
  void alloc_schedulerDisconnects_allocSentAgainToTheNextScheduler() {
    JmFixture f = online();
    submitOne(f);
    sched.close();
    f.settle();
    assertThat(f.jm.schedulerOnline()).isFalse();
    sched = f.hub.attach(Credentials.owner(JmFixture.OWNER));
    sched.register(Service.builder("sched").on("alloc", allocs::add).build());
    f.settle();
    helloAndReady(f);
    assertThat(allocs).hasSize(2);
    grantOneNode(f, 1);
  }

  @Test
  void alloc_schedSimpleAnnotatingPending_waitingJobAnnotatedThenCleanSummaryAtSuccess() {
    JmFixture f = new JmFixture(dir).startJobManager();
    f.startScheduler(JmFixture.pool(1, 4), SchedulerOptions.defaults().withAnnotatePending(true));
    long a = f.submitNodes(1, ALICE);
    CompletableFuture<Long> b = f.jm.submit(nodes(1), BOB);
    f.settle();
    assertThat(b).isNotDone();
    assertThat(f.jm.annotations(a + 1).orElseThrow().toString())
        .isEqualTo("{\"sched\":{\"reason_pending\":\"insufficient resources\",\"jobs_ahead\":0}}");
    f.jm.finish(a);
    f.settle();
    long idb = b.join();
    assertThat(f.events(idb).get(1).context().get("annotations").toString())
        .isEqualTo("{\"sched\":{\"resource_summary\":\"rank0/core[0-3]\"}}");
    f.checkAgree(idb);
  }

  @ParameterizedTest(name = "{0} + {1} = {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {}                                  | {"sched":{"a":1}}              | {"sched":{"a":1}}
          {"sched":{"a":1}}                   | {"sched":{"b":2}}              | {"sched":{"a":1,"b":2}}
          {"sched":{"a":1}}                   | {"sched":{"a":null}}           | {}
          {"sched":{"a":1},"user":{"x":"y"}}  | {"sched":null}                 | {"user":{"x":"y"}}
          {"sched":{"a":{"b":1}}}             | {"sched":{"a":{"b":null}}}     | {}
          {"sched":{"a":{"b":1}}}             | {"sched":{"a":5}}              | {"sched":{"a":5}}
          {"sched":{"a":5}}                   | {"sched":{"a":{"b":1}}}        | {"sched":{"a":{"b":1}}}
          {}                                  | {"sched":{"a":null}}           | {}
          {"sched":{"a":1}}                   | {"sched":{}}                   | {"sched":{"a":1}}
          """)
  void mergeAnnotations_rfc27Rules_nullDeletesEmptyObjectsGo(
      String before, String update, String after) {
    ObjectNode into = (ObjectNode) parse(before);
    io.fluxdrm.jobmanager.core.JobManagerCore.mergeAnnotations(into, (ObjectNode) parse(update));
    assertThat(into.toString()).isEqualTo(after);
  }
}
