package io.fluxdrm.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The topic names are those RFC 27, RFC 51 and flux-core's job shell give. */
class TopicsTest {

  @Test
  void rfc27_topics_asTheRfcNamesThem() {
    assertThat(Rfc27Topics.ALLOC).isEqualTo("sched.alloc");
    assertThat(Rfc27Topics.FREE).isEqualTo("sched.free");
    assertThat(Rfc27Topics.CANCEL).isEqualTo("sched.cancel");
    assertThat(Rfc27Topics.PRIORITIZE).isEqualTo("sched.prioritize");
    assertThat(Rfc27Topics.EXPIRATION).isEqualTo("sched.expiration");
    assertThat(Rfc27Topics.SCHED_HELLO).isEqualTo("job-manager.sched-hello");
    assertThat(Rfc27Topics.SCHED_READY).isEqualTo("job-manager.sched-ready");
  }

  @Test
  void rfc51_topics_asSeed004NamesThem() {
    assertThat(Rfc51Topics.SCHED_REALLOC).isEqualTo("sched.realloc");
    assertThat(Rfc51Topics.SCHED_REALLOC_CANCEL).isEqualTo("sched.realloc_cancel");
    assertThat(Rfc51Topics.JOB_MANAGER_REALLOC).isEqualTo("job-manager.realloc");
    assertThat(Rfc51Topics.JOB_MANAGER_RELEASE).isEqualTo("job-manager.release");
  }

  @Test
  void shellService_uidAndPlainF58JobId() {
    assertThat(ShellTopics.service(1000, 1)).isEqualTo("1000-shell-f2");
    assertThat(ShellTopics.topic(1000, 58, ShellTopics.RELEASE_METHOD))
        .isEqualTo("1000-shell-f21.release");
    assertThat(ShellTopics.service(-2, 0)).isEqualTo("4294967294-shell-f1");
  }
}
