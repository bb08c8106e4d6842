package io.fluxdrm.protocol;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rset.IdSet;
import java.util.Objects;

/**
 * RFC 51 "Background": the job shell hands back the ranks a granted shrink took away, {@code
 * job-manager.release {"id": JOB, "ranks": IDSET, "final": false}} (schema {@code
 * job-manager.release-request}), answered with a {@link JobR}. The job manager, which also takes
 * {@code R} in place of {@code ranks} and refuses {@code final: true} with EINVAL, reads the
 * request itself; this record is the shell's form.
 *
 * @param id the job id, its 64 bits read as unsigned (D11)
 * @param ranks the ranks handed back
 */
public record JobManagerRelease(long id, IdSet ranks) {
  /** The record; {@code ranks} must not be null. */
  public JobManagerRelease {
    Objects.requireNonNull(ranks, "ranks");
  }

  /** The payload, {@code final} false: a job ends by finishing, not by a release. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.set("id", JobId.json(id));
    o.put("ranks", ranks.toString());
    o.put("final", false);
    return o;
  }
}
