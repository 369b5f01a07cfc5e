package memstore

import (
	"strings"
	"testing"
)

// The store tests are one table, storeTests, that TestStore runs against
// each engine: as TestStore/sqlite/<name> on a SQLite file in a temporary
// directory and as TestStore/postgres/<name> on a fresh schema of the
// PostgreSQL database that MCP_TEST_POSTGRES names (default
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable). When that
// database is unreachable the PostgreSQL run is skipped, saying so,
// except under CI=true, where it fails; -short skips it too. A test opens
// its store with openTest (or openGraphsTest), which opens the engine the
// test runs on (engineOf); tests of one engine's internals skip the other
// (sqliteOnly). To run one test on PostgreSQL only:
//
//	go test -run 'TestStore/postgres/ChangeFeed$' ./components/memory/memstore/

// Engines of the store tests.
const (
	engineSQLite   = "sqlite"
	enginePostgres = "postgres"
)

// storeTests is the store test table.
var storeTests = []struct {
	name string
	run  func(t *testing.T)
}{
	{"ChangeFeed", testChangeFeed},
	{"ChangeFeedLongDetailIsCut", testChangeFeedLongDetailIsCut},
	{"ChangeFeedRetention", testChangeFeedRetention},
	{"FailedWriteRecordsNoChange", testFailedWriteRecordsNoChange},
	{"ConcurrentWritersNeverFail", testConcurrentWritersNeverFail},
	{"TwoStoresOnOneFile", testTwoStoresOnOneFile},
	{"CrashKeepsAcknowledgedWrites", testCrashKeepsAcknowledgedWrites},
	{"CreateEntitiesSkipsExistingAndBatchDuplicates", testCreateEntitiesSkipsExistingAndBatchDuplicates},
	{"CreateRelations", testCreateRelations},
	{"AddObservations", testAddObservations},
	{"AddObservationsMissingEntityChangesNothing", testAddObservationsMissingEntityChangesNothing},
	{"DeleteEntitiesRemovesTouchingRelations", testDeleteEntitiesRemovesTouchingRelations},
	{"DeleteObservations", testDeleteObservations},
	{"DeleteRelations", testDeleteRelations},
	{"ReadGraphKeepsInsertionOrder", testReadGraphKeepsInsertionOrder},
	{"OpenNodes", testOpenNodes},
	{"EntityNames", testEntityNames},
	{"LimitsAndInvalidInput", testLimitsAndInvalidInput},
	{"AnyUnicodeAndEmptyStrings", testAnyUnicodeAndEmptyStrings},
	{"ReopenKeepsData", testReopenKeepsData},
	{"OpenRejectsNonFilePathsAndNewerSchema", testOpenRejectsNonFilePathsAndNewerSchema},
	{"PathWithSpecialCharacters", testPathWithSpecialCharacters},
	{"SearchIndexRebuiltWhenFoldVersionChanges", testSearchIndexRebuiltWhenFoldVersionChanges},
	{"HugeBatchAtLimit", testHugeBatchAtLimit},
	{"CanceledContextChangesNothing", testCanceledContextChangesNothing},
	{"WalkGraphEqualsReadGraph", testWalkGraphEqualsReadGraph},
	{"GraphsShareNothing", testGraphsShareNothing},
	{"GraphNames", testGraphNames},
	{"GraphsBounds", testGraphsBounds},
	{"GraphsUseExisting", testGraphsUseExisting},
	{"AuthorAndHistory", testAuthorAndHistory},
	{"HistoryRetention", testHistoryRetention},
	{"GraphsConcurrentUse", testGraphsConcurrentUse},
	{"HistoryRoundTrip", testHistoryRoundTrip},
	{"ExportFormat", testExportFormat},
	{"ImportExportRoundTrip", testImportExportRoundTrip},
	{"ImportToleratesWhatTheReferenceLoads", testImportToleratesWhatTheReferenceLoads},
	{"ImportMergesIntoExistingGraph", testImportMergesIntoExistingGraph},
	{"ImportErrorsChangeNothing", testImportErrorsChangeNothing},
	{"LargeGraphSearch", testLargeGraphSearch},
	{"SampleText", testSampleText},
	{"RandomOpsAgainstModel", testRandomOpsAgainstModel},
	{"PairsAddedInTheBackground", testPairsAddedInTheBackground},
	{"ControlBytesInNamesAndSearch", testControlBytesInNamesAndSearch},
	{"DifferentialAgainstReference", testDifferentialAgainstReference},
	{"SearchNodesSemantics", testSearchNodesSemantics},
	{"SearchAgainstModel", testSearchAgainstModel},
	{"SearchAfterRowidReuse", testSearchAfterRowidReuse},
	{"SearchTail", testSearchTail},
	{"SearchTailAfterDeletingTheNewest", testSearchTailAfterDeletingTheNewest},
	{"Tasks", testTasks},
	{"TaskErrors", testTaskErrors},
	{"MergeSearchKeepsResults", testMergeSearchKeepsResults},
	{"SearchMergedWhenQuiet", testSearchMergedWhenQuiet},
	{"UsermergeMigration", testUsermergeMigration},
	{"BulkWritesMergeSegments", testBulkWritesMergeSegments},
	{"WALPreallocated", testWALPreallocated},
}

// TestStore runs storeTests against each engine.
func TestStore(t *testing.T) {
	for _, engine := range []string{engineSQLite, enginePostgres} {
		t.Run(engine, func(t *testing.T) {
			if engine == enginePostgres {
				if testing.Short() {
					t.Skip("the PostgreSQL run is slow; it runs without -short")
				}
				postgresTestURL(t) // skip (or fail under CI) here when unreachable
			}
			for _, st := range storeTests {
				t.Run(st.name, st.run)
			}
		})
	}
}

// engineOf is the engine the test t runs on: PostgreSQL under
// TestStore/postgres, SQLite anywhere else.
func engineOf(t testing.TB) string {
	if strings.HasPrefix(t.Name(), "TestStore/"+enginePostgres+"/") {
		return enginePostgres
	}
	return engineSQLite
}
