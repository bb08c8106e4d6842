package io.fluxdrm.pmix.port;

import java.util.concurrent.CompletionStage;

/**
 * How a {@link DvmPort} comes to exist: a client connects to one daemon of a DVM (as {@code
 * PMIx_tool_init} or {@code PMIx_Init} does), and a scheduler attaches to the DVM's master (PRRTE
 * §7.4.3 Flow-of-Control: a scheduler may attach to the master only). Each port is bound to the
 * {@link Client} it was made for and to the daemon it reached; requests through it are that
 * client's, and its {@link DvmPort#disconnect()} is the client's finalize.
 */
public interface DvmConnector {

  /**
   * Connects a tool or application process to the daemon on {@code host}.
   *
   * @param client who connects ({@link Client.Kind#TOOL} or {@link Client.Kind#APPLICATION})
   * @param host the node whose daemon the client reaches
   * @return the port, or a failure (no daemon there, a scheduler kind here)
   */
  CompletionStage<DvmPort> connect(Client client, String host);

  /**
   * Attaches a scheduler to the DVM's master; the DVM then forwards what it does not answer itself
   * to {@code upcalls}, and the returned port is how the scheduler calls down (its session controls
   * are directives the DVM executes, PRRTE §7.4.4.1 "Who answers a request"). Attachment works
   * whichever side started first; a scheduler that disconnects may attach again.
   *
   * @param scheduler the scheduler ({@link Client.Kind#SCHEDULER})
   * @param upcalls what the DVM calls on it
   * @return the scheduler's port, or a failure (another scheduler is attached)
   */
  CompletionStage<DvmPort> attachScheduler(Client scheduler, SchedulerUpcalls upcalls);
}
