CREATE TABLE "url_list_models" (
	"name" text PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"info" text NOT NULL,
	"weights" "bytea" NOT NULL,
	"trained_at" timestamp with time zone NOT NULL
);
