package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;

import static org.assertj.core.api.Assertions.assertThat;

class MergePatchesTest {

    @Test
    void jsonMergeFollowsRfc7386() {
        JsonNode target = json("{'a':'b','c':{'d':'e','f':'g'},'list':[1,2],'keep':true}");
        JsonNode patch = json("{'a':'z','c':{'f':null},'list':[3],'new':{'x':1}}");

        assertThat(MergePatches.jsonMerge(target, patch))
                .isEqualTo(json("{'a':'z','c':{'d':'e'},'list':[3],'keep':true,'new':{'x':1}}"));
        assertThat(target).isEqualTo(json("{'a':'b','c':{'d':'e','f':'g'},'list':[1,2],'keep':true}"));
    }

    @Test
    void strategicMergeMergesContainersByNameAndDropsDirectives() {
        JsonNode pod = json("{'spec':{'containers':[{'name':'main','image':'a','args':['x']},{'name':'side','image':'s'}],"
                + "'tolerations':[{'key':'k1'}]}}");
        JsonNode patch = json("{'spec':{'$setElementOrder/containers':[{'name':'main'},{'name':'side'}],"
                + "'containers':[{'name':'main','image':'b'},{'name':'new','image':'n'}],'tolerations':[{'key':'k2'}]}}");

        assertThat(MergePatches.strategicMerge(pod, patch)).contains(json(
                "{'spec':{'containers':[{'name':'main','image':'b','args':['x']},{'name':'side','image':'s'},"
                        + "{'name':'new','image':'n'}],'tolerations':[{'key':'k2'}]}}"));
    }

    @Test
    void strategicMergeHonoursDeleteAndReplaceDirectivesAndNulls() {
        JsonNode pod = json("{'metadata':{'labels':{'a':'1','b':'2'}},'spec':{'containers':[{'name':'main'},{'name':'side'}],"
                + "'nodeSelector':{'zone':'x','disk':'ssd'}}}");
        JsonNode patch = json("{'metadata':{'labels':{'a':null}},'spec':{'containers':[{'name':'side','$patch':'delete'}],"
                + "'nodeSelector':{'$patch':'replace','gpu':'yes'}}}");

        assertThat(MergePatches.strategicMerge(pod, patch)).contains(json(
                "{'metadata':{'labels':{'b':'2'}},'spec':{'containers':[{'name':'main'}],'nodeSelector':{'gpu':'yes'}}}"));
    }

    private static JsonNode json(String singleQuoted) {
        try {
            return Serialization.jsonMapper().readTree(singleQuoted.replace('\'', '"'));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
