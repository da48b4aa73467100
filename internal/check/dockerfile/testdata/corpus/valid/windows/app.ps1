Write-Host hi
