package dev.muster.scheduler;

import java.util.Map;

/**
 * Where a queue stood after the scheduler's latest cycle: what an operator asks when a team's jobs wait
 * ("what does the queue hold, what is it entitled to, and what does it ask for?"). Amounts are resource
 * lists as in a pod spec ({@code cpu: "4"}, {@code memory: 16Gi}, {@code nvidia.com/gpu: "8"}); a parent's
 * cover its subtree.
 *
 * @param name      the Queue
 * @param allocated what its bound pods request
 * @param fairShare its entitlement by weighted water-filling
 * @param demand    what its running and waiting gangs request
 * @param share     allocated over fair share on its dominant resource; 0 with nothing allocated, and
 *                  {@code null} (JSON has no infinity) when it holds a resource it has no fair share of
 * @param pending   its gangs waiting to start
 * @param running   its gangs running
 */
public record QueueState(String name, Map<String, String> allocated, Map<String, String> fairShare,
                         Map<String, String> demand, Double share, int pending, int running) {
}
