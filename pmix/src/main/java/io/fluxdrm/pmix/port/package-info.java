/**
 * The DVM port (decision D17): the one interface through which anything talks to a DVM, shaped
 * after the PMIx calls so that an adapter over libpmix implements it one call for one call, and the
 * upcalls a DVM makes to an attached scheduler; {@code DvmConnector} makes the ports, one per
 * {@code Client}. Every call is asynchronous and completes with a PMIx status and the infos PMIx
 * would return.
 */
package io.fluxdrm.pmix.port;
