#!/bin/sh
# Calls the staging API.
curl -H 'Authorization: Bearer 578800f4c5f79e0e06e129e41a07100a60c855b5' https://api.staging.internal/v1/items
curl -H 'Authorization: Basic ZGVwbG95OnJnM2lOdkZ4NUJlcEFE' https://registry.internal/
