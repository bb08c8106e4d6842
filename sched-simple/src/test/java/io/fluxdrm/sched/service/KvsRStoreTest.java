package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.fixture.FakeFluxBroker;
import io.fluxdrm.rpc.fixture.FakeKvs;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The R written in one turn go in one {@code kvs.commit} (D586), through a broker's kvs. */
@Timeout(60)
class KvsRStoreTest {
  private static final ResourceSet POOL =
      ResourceSet.of(IdSet.range(0, 3), IdSet.range(0, 3), IdSet.empty(), Hostlist.parse("n[0-3]"));

  private static ResourceSet rOf(int rank) {
    return POOL.copyRanks(IdSet.of(rank)).withNslots(1).withTimes(10 + rank, 0);
  }

  /** Writes {@code n} R in one task of the loop and returns their futures. */
  private static List<CompletableFuture<Void>> writeInOneTurn(
      Reactor reactor, KvsRStore store, int n) throws Exception {
    List<CompletableFuture<Void>> fs = new ArrayList<>();
    CompletableFuture.runAsync(
            () -> {
              for (int i = 0; i < n; i++) {
                ResourceSet r = rOf(i % 4);
                fs.add(store.write(1000 + i, r, r.toJsonBytes()));
              }
            },
            reactor::execute)
        .get(5, TimeUnit.SECONDS);
    return fs;
  }

  @Test
  void writes_inOneTurn_oneCommitHoldsEach(@TempDir Path dir) throws Exception {
    Map<String, String> kvs = new ConcurrentHashMap<>();
    List<String> calls = Collections.synchronizedList(new ArrayList<>());
    try (FakeFluxBroker broker = FakeFluxBroker.start(dir, FakeFluxBroker.Options.defaults());
        Reactor reactor = Reactor.start("kvs-store-test")) {
      FluxHandle server = FluxHandle.connect(reactor, broker.uri(), Duration.ofSeconds(5));
      server
          .register(FakeKvs.service(kvs, (m, k) -> calls.add(m + " " + k)))
          .get(5, TimeUnit.SECONDS);
      FluxHandle h = FluxHandle.connect(reactor, broker.uri(), Duration.ofSeconds(5));
      KvsRStore store = new KvsRStore(h);

      List<CompletableFuture<Void>> fs = writeInOneTurn(reactor, store, 3);
      CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);

      assertThat(store.commits()).isEqualTo(1);
      assertThat(calls)
          .containsExactly(
              "commit " + KvsRStore.rKey(1000),
              "commit " + KvsRStore.rKey(1001),
              "commit " + KvsRStore.rKey(1002));
      for (int i = 0; i < 3; i++) {
        assertThat(ResourceSet.parse(kvs.get(KvsRStore.rKey(1000 + i)))).isEqualTo(rOf(i));
        assertThat(store.read(1000 + i).get(5, TimeUnit.SECONDS)).isEqualTo(rOf(i));
      }

      // a later turn: a commit of its own
      writeInOneTurn(reactor, store, 1).get(0).get(5, TimeUnit.SECONDS);
      assertThat(store.commits()).isEqualTo(2);
    }
  }

  @Test
  void writes_moreThanOneCommitHolds_splitAndAllWritten(@TempDir Path dir) throws Exception {
    Map<String, String> kvs = new ConcurrentHashMap<>();
    try (FakeFluxBroker broker = FakeFluxBroker.start(dir, FakeFluxBroker.Options.defaults());
        Reactor reactor = Reactor.start("kvs-store-test")) {
      FluxHandle server = FluxHandle.connect(reactor, broker.uri(), Duration.ofSeconds(5));
      server.register(FakeKvs.service(kvs, (m, k) -> {})).get(5, TimeUnit.SECONDS);
      KvsRStore store =
          new KvsRStore(FluxHandle.connect(reactor, broker.uri(), Duration.ofSeconds(5)));
      int n = 2 * KvsRStore.MAX_OPS + 1;

      List<CompletableFuture<Void>> fs = writeInOneTurn(reactor, store, n);
      CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);

      assertThat(store.commits()).isEqualTo(3);
      assertThat(kvs).hasSize(n);
      assertThat(ResourceSet.parse(kvs.get(KvsRStore.rKey(1000 + n - 1))))
          .isEqualTo(rOf((n - 1) % 4));
    }
  }

  @Test
  void commit_failed_everyWriteOfTheTurnFailsWithItsError(@TempDir Path dir) throws Exception {
    try (FakeFluxBroker broker = FakeFluxBroker.start(dir, FakeFluxBroker.Options.defaults());
        Reactor reactor = Reactor.start("kvs-store-test")) {
      FluxHandle server = FluxHandle.connect(reactor, broker.uri(), Duration.ofSeconds(5));
      server
          .register(
              Service.builder("kvs").on("commit", r -> r.fail(Errno.ENOSPC, "no space")).build())
          .get(5, TimeUnit.SECONDS);
      KvsRStore store =
          new KvsRStore(FluxHandle.connect(reactor, broker.uri(), Duration.ofSeconds(5)));

      List<CompletableFuture<Void>> fs = writeInOneTurn(reactor, store, 2);

      for (CompletableFuture<Void> f : fs) {
        try {
          f.get(5, TimeUnit.SECONDS);
          throw new AssertionError("expected the write to fail");
        } catch (ExecutionException e) {
          assertThat(e.getCause()).isInstanceOf(RpcException.class);
          assertThat(((RpcException) e.getCause()).errnum()).isEqualTo(Errno.ENOSPC);
        }
      }
      assertThat(store.commits()).isEqualTo(1);
    }
  }
}
