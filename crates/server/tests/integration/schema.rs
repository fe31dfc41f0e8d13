//! The schema keeps every read and every delete off full scans: each foreign key has an index
//! that starts with its columns (a cascading delete finds the rows it takes by it), and each SQL
//! statement the server runs filters through an index. A table scan under SQLite's one write
//! lock makes one organization's delete every other organization's wait.

use std::collections::BTreeSet;
use std::sync::Mutex;

use axum::http::Method;
use platform_server::db::{self, Commits};
use sqlx::SqlitePool;
use tracing_subscriber::Layer;

use crate::audit::drive_every_write;
use crate::common::{concrete, fresh_variable, is_variable, records, TestServer};

async fn migrated() -> (tempfile::TempDir, SqlitePool) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let pool = db::open(
        &dir.path().join("platform.db"),
        &Commits::default(),
        db::BUSY_TIMEOUT,
    )
    .await
    .expect("the database opens");
    (dir, pool)
}

async fn tables(pool: &SqlitePool) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table'
         AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx_%' ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .expect("the tables")
}

/// The column lists of the table's indexes (its primary key's and unique constraints' too).
async fn indexed_prefixes(pool: &SqlitePool, table: &str) -> Vec<Vec<String>> {
    let names: Vec<String> = sqlx::query_scalar("SELECT name FROM pragma_index_list(?)")
        .bind(table)
        .fetch_all(pool)
        .await
        .expect("the indexes");
    let mut indexes = Vec::new();
    for name in names {
        let columns: Vec<String> =
            sqlx::query_scalar("SELECT name FROM pragma_index_info(?) ORDER BY seqno")
                .bind(&name)
                .fetch_all(pool)
                .await
                .expect("the index's columns");
        indexes.push(columns);
    }
    // A rowid table's INTEGER PRIMARY KEY is the rowid itself, in no index list.
    let rowid_key: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM pragma_table_info(?) WHERE pk = 1 AND type = 'INTEGER'",
    )
    .bind(table)
    .fetch_all(pool)
    .await
    .expect("the primary key");
    indexes.extend(rowid_key.into_iter().map(|column| vec![column]));
    indexes
}

#[tokio::test]
async fn every_foreign_key_has_an_index_starting_with_its_columns() {
    let (_dir, pool) = migrated().await;
    let mut unindexed = Vec::new();
    let mut checked = 0;
    for table in tables(&pool).await {
        let keys: Vec<(i64, String)> =
            sqlx::query_as(r#"SELECT id, "from" FROM pragma_foreign_key_list(?) ORDER BY id, seq"#)
                .bind(&table)
                .fetch_all(&pool)
                .await
                .expect("the foreign keys");
        let mut by_key: Vec<(i64, Vec<String>)> = Vec::new();
        for (id, column) in keys {
            match by_key.last_mut() {
                Some((last, columns)) if *last == id => columns.push(column),
                _ => by_key.push((id, vec![column])),
            }
        }
        let indexes = indexed_prefixes(&pool, &table).await;
        for (_, columns) in by_key {
            checked += 1;
            let covered = indexes
                .iter()
                .any(|index| index.len() >= columns.len() && index[..columns.len()] == columns[..]);
            if !covered {
                unindexed.push(format!("{table} ({})", columns.join(", ")));
            }
        }
    }
    assert!(checked >= 15, "only {checked} foreign keys found");
    assert!(
        unindexed.is_empty(),
        "foreign keys without an index: {unindexed:?}"
    );
}

/// Every SQL statement the server runs in this test binary, as SQLx reports it (target
/// `sqlx::query`, the statement in `db.statement`, or in `summary` when short): whatever builds
/// it (a literal, `format!`, a query builder), the statement SQLite is given.
static RAN: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

struct Statements;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Statements {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        if event.metadata().target() != "sqlx::query" {
            return;
        }
        #[derive(Default)]
        struct Fields {
            summary: String,
            statement: String,
        }
        impl tracing::field::Visit for Fields {
            fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
                match field.name() {
                    "summary" => self.summary = value.to_string(),
                    "db.statement" => self.statement = value.to_string(),
                    _ => {}
                }
            }
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if matches!(field.name(), "summary" | "db.statement") {
                    self.record_str(field, format!("{value:?}").trim_matches('"'));
                }
            }
        }
        let mut fields = Fields::default();
        event.record(&mut fields);
        let sql = if fields.statement.trim().is_empty() {
            fields.summary
        } else {
            fields.statement
        };
        let sql = sql.split_whitespace().collect::<Vec<_>>().join(" ");
        RAN.lock().unwrap_or_else(|e| e.into_inner()).insert(sql);
    }
}

/// Notes every statement the server runs from now on in `RAN` (once per test binary).
fn note_statements() {
    static NOTING: std::sync::Once = std::sync::Once::new();
    NOTING.call_once(|| {
        use tracing_subscriber::layer::SubscriberExt;
        let subscriber = tracing_subscriber::registry().with(
            Statements.with_filter(
                tracing_subscriber::filter::Targets::new()
                    .with_target("sqlx::query", tracing::Level::TRACE),
            ),
        );
        // Another test of the binary may have set one first: then nothing is noted, and the
        // count below says so.
        let _ = tracing::subscriber::set_global_default(subscriber);
    });
}

/// Statements that read a whole table on purpose, and why.
const WHOLE_TABLE_READS: &[(&str, &str)] = &[
    (
        "SELECT id, secret_value FROM variables WHERE secret_value IS NOT NULL AND secret_value NOT LIKE",
        "once at start, before listening: seals what an earlier version stored in clear",
    ),
    (
        "SELECT id, secrets FROM organization_resources WHERE secrets != '{}'",
        "once at start, before listening: seals what an earlier version stored in clear",
    ),
    (
        "SELECT id, secrets FROM services WHERE secrets != '{}'",
        "once at start, before listening: seals what an earlier version stored in clear",
    ),
];

/// Whether SQLite's plan step `detail` reads all of one of `tables` (not through an index).
fn scans_a_table(detail: &str, tables: &BTreeSet<String>) -> bool {
    let Some(rest) = detail.strip_prefix("SCAN ") else {
        return false;
    };
    let table = rest.split_whitespace().next().unwrap_or("");
    tables.contains(table) && !rest.contains(" USING ")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_statement_the_server_runs_reads_through_an_index() {
    note_statements();
    let server = TestServer::with_workers(2).await;
    // What a busy installation does: every write, every read, the audit log filtered.
    drive_every_write(&server).await;
    let records = records(&server).await;
    for rule in platform_server::routes::table(&server.state).rules() {
        if rule.method == Method::GET {
            let path = if is_variable(&rule.path) {
                fresh_variable(&server, &records, &rule.path).await
            } else {
                concrete(&rule.path, &records)
            };
            server.get(&path).await;
        }
    }
    let events = format!("/api/organization/{}/events", server.organization_id);
    for filter in [
        "eventType=CREATE",
        "targetType=WEBHOOK",
        "subTargetType=API_TOKEN",
        "triggeredBy=nobody",
        "origin=API",
        "targetId=00000000-0000-0000-0000-000000000000",
        // What the review before a deploy asks: one target's changes since a deployment began.
        "targetId=00000000-0000-0000-0000-000000000000&fromTimestamp=2026-01-01T00:00:00Z",
    ] {
        server.get(&format!("{events}?{filter}")).await;
    }

    let ran: Vec<String> = RAN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .cloned()
        .collect();
    assert!(ran.len() > 150, "only {} statements noted", ran.len());
    let tables: BTreeSet<String> = tables(&server.state.db).await.into_iter().collect();
    let mut scans = Vec::new();
    for sql in &ran {
        let reads_rows = ["SELECT", "UPDATE", "DELETE", "WITH", "INSERT"]
            .iter()
            .any(|start| sql.to_ascii_uppercase().starts_with(start));
        if !reads_rows
            || WHOLE_TABLE_READS
                .iter()
                .any(|(start, _)| sql.starts_with(start))
        {
            continue;
        }
        let plan: Vec<(i64, i64, i64, String)> =
            match sqlx::query_as(&format!("EXPLAIN QUERY PLAN {sql}"))
                .fetch_all(&server.state.db)
                .await
            {
                Ok(plan) => plan,
                // A statement of a table made and dropped by a test of its own.
                Err(_) => continue,
            };
        for (_, _, _, detail) in plan {
            if scans_a_table(&detail, &tables) {
                scans.push(format!("{detail}: {sql}"));
            }
        }
    }
    println!("schema: {} statements planned", ran.len());
    assert!(
        scans.is_empty(),
        "statements that read a whole table:\n{}",
        scans.join("\n")
    );
}
