package io.fluxdrm.pmix.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Allocation requests and spawn allocations read from infos and written back (D546). */
class AllocationRequestTest {

  private static final List<Info> FULL =
      List.of(
          Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 2L),
          Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 8L),
          Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n[1-2]:4"),
          Info.of(PmixKey.PMIX_ALLOC_EXCLUDE, "n9"),
          Info.of(PmixKey.PMIX_ALLOC_TIME, "1:00"),
          Info.of(PmixKey.PMIX_ALLOC_ID, "7"),
          Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "r1"),
          Info.of(PmixKey.PMIX_ALLOC_TARGET, "job.2"),
          Info.of(PmixKey.PMIX_ALLOC_QUEUE, "batch"),
          Info.of(PmixKey.PMIX_ALLOC_SHARE, true),
          Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, AllocInheritance.of(1).orElseThrow()),
          Info.of(PmixKey.PMIX_ALLOC_WARN_TIMEOUT, 30L),
          Info.of(PmixKey.PMIX_USERID, 1000L),
          Info.of(PmixKey.PMIX_REQUESTOR, new PmixProc("job.1", 0)),
          Info.of(PmixKey.PMIX_ALLOC_MEM_SIZE, 1.5f));

  @Test
  void everyTypedKeyIsReadAndTheRestKeptInOrder() {
    AllocationRequest r = AllocationRequest.parse(FULL);
    assertThat(r.numNodes()).contains(2L);
    assertThat(r.numCpus()).contains(8L);
    assertThat(r.nodeList().orElseThrow().hosts()).containsExactly("n1", "n2");
    assertThat(r.nodes()).allMatch(e -> e.slots().equals(Optional.of(4)));
    assertThat(r.exclude().orElseThrow().hosts()).containsExactly("n9");
    assertThat(r.timeSeconds()).contains(60L);
    assertThat(r.allocId()).contains("7");
    assertThat(r.reqId()).contains("r1");
    assertThat(r.target()).contains("job.2");
    assertThat(r.queue()).contains("batch");
    assertThat(r.share()).contains(true);
    assertThat(r.warnTimeout()).contains(30L);
    assertThat(r.userId()).contains(1000L);
    assertThat(r.requestor()).contains(new PmixProc("job.1", 0));
    assertThat(r.selection())
        .containsExactly(
            "PMIX_ALLOC_NUM_NODES",
            "PMIX_ALLOC_NUM_CPUS",
            "PMIX_ALLOC_QUEUE",
            "PMIX_ALLOC_MEM_SIZE");
    assertThat(r.firstSelection()).contains("PMIX_ALLOC_NUM_NODES");
    assertThat(r.others()).containsExactly(FULL.get(14));
    assertThat(r.extendsSomething()).isTrue();
    assertThat(AllocationRequest.isResourceSelection(PmixKey.PMIX_ALLOC_CPU_LIST)).isTrue();
    assertThat(AllocationRequest.isResourceSelection(PmixKey.PMIX_ALLOC_NODE_LIST)).isFalse();
  }

  @Test
  void toInfosWritesBackWhatWasRead() {
    AllocationRequest r = AllocationRequest.parse(FULL);
    assertThat(AllocationRequest.parse(r.toInfos())).isEqualTo(r);
    assertThat(r.toInfos()).hasSize(FULL.size());
    assertThat(AllocationRequest.empty().toInfos()).isEmpty();
    assertThat(AllocationRequest.empty().extendsSomething()).isFalse();
  }

  @Test
  void badValuesAreLocated() {
    assertThatThrownBy(
            () -> AllocationRequest.parse(List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n[3-"))))
        .isInstanceOfSatisfying(
            RequestException.class,
            e -> {
              assertThat(e.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
              assertThat(e.key()).isEqualTo(PmixKey.PMIX_ALLOC_NODE_LIST);
            })
        .hasMessageStartingWith("PMIX_ALLOC_NODE_LIST \"n[3-\": ");
    assertThatThrownBy(
            () -> AllocationRequest.parse(List.of(Info.of(PmixKey.PMIX_ALLOC_EXCLUDE, "n1:2"))))
        .hasMessage(
            "PMIX_ALLOC_EXCLUDE \"n1:2\": entry \"n1:2\" has a slot count (expected: host names"
                + " only)");
    assertThatThrownBy(
            () -> AllocationRequest.parse(List.of(Info.of(PmixKey.PMIX_ALLOC_TIME, "1::2"))))
        .isInstanceOfSatisfying(
            RequestException.class,
            e -> assertThat(e.labelled("ignored")).isEqualTo(e.getMessage()))
        .hasMessageStartingWith("pmix.alloc.time \"1::2\": field 2 of 3 is empty");
  }

  @Test
  void aSpawnAllocationIsReadAndWrittenBack() {
    List<Info> req = List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n3:2"));
    SpawnAllocation s = new SpawnAllocation(AllocDirective.NEW, req);
    SpawnAllocation back = SpawnAllocation.find(s.toInfos()).orElseThrow();
    assertThat(back).isEqualTo(s);
    assertThat(back.request().nodes()).extracting(NodeList.Entry::host).containsExactly("n3");
    assertThat(SpawnAllocation.find(req)).isEmpty();
  }

  @Test
  void aBadSpawnAllocationIsLocated() {
    assertThatThrownBy(
            () ->
                SpawnAllocation.parse(
                    new Info(SpawnAllocation.KEY, PmixDataType.PMIX_DATA_ARRAY, List.of())))
        .hasMessage("PMIX_SPAWN_ALLOC without PMIX_ALLOC_REQ_DIRECTIVE");
    Info wrongType =
        new Info(
            SpawnAllocation.KEY,
            PmixDataType.PMIX_DATA_ARRAY,
            List.of(new Info(SpawnAllocation.DIRECTIVE_KEY, PmixDataType.PMIX_INT, 1)));
    assertThatThrownBy(() -> SpawnAllocation.parse(wrongType))
        .isInstanceOfSatisfying(
            RequestException.class,
            e -> assertThat(e.key()).isEqualTo(SpawnAllocation.DIRECTIVE_KEY))
        .hasMessage("PMIX_ALLOC_REQ_DIRECTIVE: PMIX_INT (expected: PMIX_ALLOC_DIRECTIVE)");
    Info unknown =
        new Info(
            SpawnAllocation.KEY,
            PmixDataType.PMIX_DATA_ARRAY,
            List.of(
                new Info(SpawnAllocation.DIRECTIVE_KEY, PmixDataType.PMIX_ALLOC_DIRECTIVE, 99)));
    assertThatThrownBy(() -> SpawnAllocation.parse(unknown))
        .hasMessage("PMIX_ALLOC_REQ_DIRECTIVE 99: unknown directive");
  }

  @Test
  void everyTypedKeyNamesItsCatalogKey() {
    for (AllocationRequest.Key k : AllocationRequest.Key.values()) {
      assertThat(k.pmixName()).isEqualTo("PMIX_ALLOC_" + k.name());
      assertThat(PmixKey.byName()).containsEntry(k.pmixName(), k.key());
    }
  }
}
