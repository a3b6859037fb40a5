package org.itsrt.job.records;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Everything that flows between the job's operators is a Flink POJO without a Kryo field. */
class RecordTypesTest {

    @ParameterizedTest
    @ValueSource(
            classes = {
                RawReading.class,
                ValidReading.class,
                DeadLetter.class,
                PredictedFlow.class,
                ConditionUpdate.class,
                RoutedAdvice.class,
                NetworkStateChange.class,
                ValidRouteRequest.class,
                RouteAnswer.class
            })
    void isAPojoWithoutGenericFields(Class<?> type) {
        assertNoGenericTypes(TypeInformation.of(type));
    }

    private static void assertNoGenericTypes(TypeInformation<?> info) {
        assertThat(info).as(info.toString()).isNotInstanceOf(GenericTypeInfo.class);
        if (info instanceof PojoTypeInfo<?> pojo) {
            for (int i = 0; i < pojo.getArity(); i++) {
                assertNoGenericTypes(pojo.getPojoFieldAt(i).getTypeInformation());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(
            classes = {
                RawReading.class,
                ValidReading.class,
                DeadLetter.class,
                PredictedFlow.class,
                ConditionUpdate.class,
                RoutedAdvice.class,
                NetworkStateChange.class,
                ValidRouteRequest.class,
                RouteAnswer.class
            })
    void isAnalysedAsAPojo(Class<?> type) {
        assertThat(TypeInformation.of(type)).isInstanceOf(PojoTypeInfo.class);
    }
}
