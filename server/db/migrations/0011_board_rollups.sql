CREATE TABLE "print_partner_daily" (
	"partner_id" integer NOT NULL,
	"day" date NOT NULL,
	"app" smallint NOT NULL,
	"subject_id" integer NOT NULL,
	"user_kind" smallint NOT NULL,
	"jobs" integer NOT NULL,
	"pages" integer NOT NULL,
	CONSTRAINT "print_partner_daily_partner_id_day_app_subject_id_user_kind_pk" PRIMARY KEY("partner_id","day","app","subject_id","user_kind")
);
--> statement-breakpoint
CREATE TABLE "print_partner_monthly" (
	"partner_id" integer NOT NULL,
	"month" date NOT NULL,
	"app" smallint NOT NULL,
	"subject_id" integer NOT NULL,
	"user_kind" smallint NOT NULL,
	"jobs" integer NOT NULL,
	"pages" integer NOT NULL,
	CONSTRAINT "print_partner_monthly_partner_id_month_app_subject_id_user_kind_pk" PRIMARY KEY("partner_id","month","app","subject_id","user_kind")
);
--> statement-breakpoint
CREATE TABLE "usage_monthly" (
	"partner_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"month" date NOT NULL,
	"user_kind" smallint NOT NULL,
	"users" integer DEFAULT 0 NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	"jobs" integer DEFAULT 0 NOT NULL,
	"pages" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_monthly_partner_id_month_school_id_user_kind_pk" PRIMARY KEY("partner_id","month","school_id","user_kind")
);
--> statement-breakpoint
ALTER TABLE "usage_daily" ADD COLUMN "jobs" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD COLUMN "pages" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Usage recorded before these rollups existed: fill them from print_daily and usage_daily.
INSERT INTO "usage_daily" ("partner_id", "school_id", "day", "user_kind", "jobs", "pages")
SELECT "partner_id", "school_id", "day", "user_kind", sum("jobs"), sum("pages") FROM "print_daily" GROUP BY 1, 2, 3, 4
ON CONFLICT ("partner_id", "day", "school_id", "user_kind") DO UPDATE SET "jobs" = excluded."jobs", "pages" = excluded."pages";--> statement-breakpoint
INSERT INTO "usage_monthly" ("partner_id", "school_id", "month", "user_kind", "users", "uses", "jobs", "pages")
SELECT "partner_id", "school_id", date_trunc('month', "day")::date, "user_kind", sum("users"), sum("uses"), sum("jobs"), sum("pages") FROM "usage_daily" GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "print_partner_daily" ("partner_id", "day", "app", "subject_id", "user_kind", "jobs", "pages")
SELECT "partner_id", "day", "app", "subject_id", "user_kind", sum("jobs"), sum("pages") FROM "print_daily" GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
INSERT INTO "print_partner_monthly" ("partner_id", "month", "app", "subject_id", "user_kind", "jobs", "pages")
SELECT "partner_id", date_trunc('month', "day")::date, "app", "subject_id", "user_kind", sum("jobs"), sum("pages") FROM "print_daily" GROUP BY 1, 2, 3, 4, 5;
