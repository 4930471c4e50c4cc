package dev.muster.local.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The quota arithmetic on plain objects, against what kube-apiserver and kube-controller-manager make of them. */
class PodQuotaTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    /** JSON with single quotes, for the tables. */
    private static ObjectNode json(String text) {
        return Json.stored(text.replace('\'', '"'));
    }

    private static ObjectNode pod(String spec) {
        return json("{'metadata':{'name':'p'},'spec':" + spec + ",'status':{'phase':'Pending'}}");
    }

    private static ObjectNode quota(String spec, String used) {
        return json("{'metadata':{'name':'q'},'spec':" + spec + ",'status':{'used':" + used + "}}");
    }

    private static String usage(JsonNode pod) {
        return PodQuota.usage(pod, NOW).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no resources           | {'containers':[{'name':'a'}]} | count/pods=1 pods=1
            requests and limits    | {'containers':[{'name':'a','resources':{'requests':{'cpu':'500m','memory':'1Gi'},'limits':{'cpu':'1','memory':'1Gi'}}}]} | count/pods=1 cpu=500m limits.cpu=1 limits.memory=1Gi memory=1Gi pods=1 requests.cpu=500m requests.memory=1Gi
            containers summed      | {'containers':[{'name':'a','resources':{'requests':{'cpu':'500m'}}},{'name':'b','resources':{'requests':{'cpu':'1500m'}}}]} | count/pods=1 cpu=2 pods=1 requests.cpu=2
            a limit is the request | {'containers':[{'name':'a','resources':{'limits':{'cpu':'2'}}}]} | count/pods=1 cpu=2 limits.cpu=2 pods=1 requests.cpu=2
            extended and storage   | {'containers':[{'name':'a','resources':{'requests':{'nvidia.com/gpu':'2','ephemeral-storage':'1Gi','hugepages-2Mi':'4Mi'},'limits':{'nvidia.com/gpu':'2'}}}]} | count/pods=1 ephemeral-storage=1Gi hugepages-2Mi=4Mi pods=1 requests.ephemeral-storage=1Gi requests.hugepages-2Mi=4Mi requests.nvidia.com/gpu=2
            largest init container | {'initContainers':[{'name':'i','resources':{'requests':{'cpu':'4'}}}],'containers':[{'name':'a','resources':{'requests':{'cpu':'1','memory':'1Gi'}}}]} | count/pods=1 cpu=4 memory=1Gi pods=1 requests.cpu=4 requests.memory=1Gi
            sidecars added to both | {'initContainers':[{'name':'s','restartPolicy':'Always','resources':{'requests':{'cpu':'1'}}},{'name':'i','resources':{'requests':{'cpu':'2'}}}],'containers':[{'name':'a','resources':{'requests':{'cpu':'1'}}}]} | count/pods=1 cpu=3 pods=1 requests.cpu=3
            overhead               | {'overhead':{'cpu':'100m'},'containers':[{'name':'a','resources':{'requests':{'cpu':'1'}}}]} | count/pods=1 cpu=1100m pods=1 requests.cpu=1100m
            """)
    void aPodCountsForItsEffectiveRequestsAndLimits(String title, String spec, String expected) {
        assertThat(usage(pod(spec))).isEqualTo(expected);
    }

    @Test
    void finishedPodsAndDeletionsPastTheirGraceCountOnlyAsStoredObjects() {
        String spec = "{'containers':[{'name':'a','resources':{'requests':{'cpu':'1'}}}]}";
        ObjectNode succeeded = pod(spec);
        succeeded.withObjectProperty("status").put("phase", "Succeeded");
        ObjectNode pastGrace = pod(spec);
        pastGrace.withObjectProperty("metadata").put("deletionTimestamp", "2026-01-01T11:59:00Z")
                .put("deletionGracePeriodSeconds", 30);
        ObjectNode inGrace = pod(spec);
        inGrace.withObjectProperty("metadata").put("deletionTimestamp", "2026-01-01T11:59:50Z")
                .put("deletionGracePeriodSeconds", 30);

        assertThat(usage(succeeded)).isEqualTo("count/pods=1");
        assertThat(usage(pastGrace)).isEqualTo("count/pods=1");
        assertThat(usage(inGrace)).isEqualTo("count/pods=1 cpu=1 pods=1 requests.cpu=1");
        assertThat(PodQuota.nextExpiry(List.of(pastGrace, inGrace), NOW)).contains(Instant.parse("2026-01-01T12:00:20Z"));
    }

    @Test
    void statusUsedSumsThePodsTheQuotaSelectsForTheResourcesItLimits() {
        ObjectNode quota = json("{'metadata':{'name':'q'},'spec':{'hard':{'pods':'4','requests.cpu':'2000m',"
                + "'count/pods':'10','limits.memory':'2Gi','services':'1'},'scopes':['NotTerminating']}}");
        ObjectNode finished = pod("{'containers':[{'name':'a','resources':{'requests':{'cpu':'1'}}}]}");
        finished.withObjectProperty("status").put("phase", "Failed");
        List<ObjectNode> pods = List.of(
                pod("{'containers':[{'name':'a','resources':{'requests':{'cpu':'500m'}}}]}"),
                pod("{'containers':[{'name':'a','resources':{'requests':{'cpu':'250m'}}}]}"),
                pod("{'activeDeadlineSeconds':60,'containers':[{'name':'a','resources':{'requests':{'cpu':'1'}}}]}"),
                finished);

        ObjectNode status = PodQuota.status(quota, pods, NOW);

        assertThat(status).isEqualTo(json("{'hard':{'count/pods':'10','limits.memory':'2Gi','pods':'4',"
                + "'requests.cpu':'2','services':'1'},'used':{'count/pods':'3','limits.memory':'0','pods':'2',"
                + "'requests.cpu':'750m'}}"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            fits                  | {'hard':{'pods':'2','requests.cpu':'2'}} | {'pods':'1','requests.cpu':'1'} | {'containers':[{'name':'a','resources':{'requests':{'cpu':'1'}}}]} | ''
            one pod too many      | {'hard':{'pods':'2','requests.cpu':'2'}} | {'pods':'2','requests.cpu':'1'} | {'containers':[{'name':'a','resources':{'requests':{'cpu':'500m'}}}]} | exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2
            both exceeded, sorted | {'hard':{'pods':'2','requests.cpu':'2'}} | {'pods':'2','requests.cpu':'1500m'} | {'containers':[{'name':'a','resources':{'requests':{'cpu':'1'}}}]} | exceeded quota: q, requested: pods=1,requests.cpu=1, used: pods=2,requests.cpu=1500m, limited: pods=2,requests.cpu=2
            memory in binary      | {'hard':{'requests.memory':'2Gi'}} | {'requests.memory':'1536Mi'} | {'containers':[{'name':'a','resources':{'requests':{'memory':'1Gi'}}}]} | exceeded quota: q, requested: requests.memory=1Gi, used: requests.memory=1536Mi, limited: requests.memory=2Gi
            gpus                  | {'hard':{'requests.nvidia.com/gpu':'4'}} | {'requests.nvidia.com/gpu':'3'} | {'containers':[{'name':'a','resources':{'limits':{'nvidia.com/gpu':'2'}}}]} | exceeded quota: q, requested: requests.nvidia.com/gpu=2, used: requests.nvidia.com/gpu=3, limited: requests.nvidia.com/gpu=4
            no gpu needs no limit | {'hard':{'requests.nvidia.com/gpu':'4'}} | {'requests.nvidia.com/gpu':'4'} | {'containers':[{'name':'a'}]} | ''
            must specify limits   | {'hard':{'limits.cpu':'4','limits.memory':'4Gi'}} | {'limits.cpu':'0','limits.memory':'0'} | {'initContainers':[{'name':'init'}],'containers':[{'name':'b','resources':{'limits':{'cpu':'1'}}},{'name':'a'}]} | failed quota: q: must specify limits.cpu for: a,init; limits.memory for: a,b,init
            must specify requests | {'hard':{'cpu':'4'}} | {'cpu':'0'} | {'containers':[{'name':'a'}]} | failed quota: q: must specify cpu for: a
            other kinds only      | {'hard':{'services':'0'}} | {} | {'containers':[{'name':'a'}]} | ''
            scope not selecting   | {'hard':{'pods':'0'},'scopes':['BestEffort']} | {'pods':'0'} | {'containers':[{'name':'a','resources':{'requests':{'cpu':'1'}}}]} | ''
            scope selecting       | {'hard':{'pods':'0'},'scopes':['BestEffort']} | {'pods':'0'} | {'containers':[{'name':'a'}]} | exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0
            priority class In     | {'hard':{'pods':'0'},'scopeSelector':{'matchExpressions':[{'scopeName':'PriorityClass','operator':'In','values':['high']}]}} | {'pods':'0'} | {'priorityClassName':'high','containers':[{'name':'a'}]} | exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0
            priority class NotIn  | {'hard':{'pods':'0'},'scopeSelector':{'matchExpressions':[{'scopeName':'PriorityClass','operator':'NotIn','values':['high']}]}} | {'pods':'0'} | {'priorityClassName':'high','containers':[{'name':'a'}]} | ''
            """)
    void aNewPodIsAdmittedOrRefusedAsKubeApiserverAnswers(String title, String spec, String used, String podSpec,
                                                          String expected) {
        Optional<String> refusal = PodQuota.refusal(List.of(quota(spec, used)), pod(podSpec), NOW);

        assertThat(refusal.orElse("")).isEqualTo(expected);
    }

    @Test
    void missingRequestsRefuseBeforeAnyQuotaIsFoundExceeded() {
        ObjectNode full = json("{'metadata':{'name':'a-full'},'spec':{'hard':{'pods':'0'}},'status':{'used':{'pods':'0'}}}");
        ObjectNode limits = json("{'metadata':{'name':'b-limits'},'spec':{'hard':{'limits.cpu':'1'}},"
                + "'status':{'used':{'limits.cpu':'0'}}}");

        assertThat(PodQuota.refusal(List.of(full, limits), pod("{'containers':[{'name':'a'}]}"), NOW))
                .contains("failed quota: b-limits: must specify limits.cpu for: a");
    }
}
