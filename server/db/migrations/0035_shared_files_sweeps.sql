CREATE TABLE "file_chunks" (
	"hash" text NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "file_chunks_hash_seq_pk" PRIMARY KEY("hash","seq")
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"hash" text PRIMARY KEY NOT NULL,
	"size" integer NOT NULL,
	"chunks" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sweep_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"ran_at" timestamp with time zone NOT NULL,
	"ran_by" text NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "file_chunks" ADD CONSTRAINT "file_chunks_hash_stored_files_hash_fk" FOREIGN KEY ("hash") REFERENCES "public"."stored_files"("hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Stored files are mostly JPEG, PNG, PDF and office documents, compressed already: kept out of line, uncompressed.
ALTER TABLE "file_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;
