package org.itsrt.job.replay;

import java.time.Instant;
import org.itsrt.routing.Route;

/**
 * What the pipeline says after one reading: the flow it expects at the reading's station in the
 * next interval, and the fastest route between the advised origin and destination under the
 * latest conditions of every station.
 *
 * @param stationId     the station whose reading triggered this advice
 * @param readingTsUtc  start of that reading's interval
 * @param observedFlow  the reading's flow (veh/5 min)
 * @param predictedFlow the flow predicted for the next interval (veh/5 min)
 * @param route         the advised route
 */
public record Advice(long stationId, Instant readingTsUtc, double observedFlow, double predictedFlow, Route route) {}
